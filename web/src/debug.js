// window.suctionDebug.snapshot(): one read-only picture of the page for scripts (tests/web/e2e.mjs,
// bench/browser_rtf.mjs, bench/browser_soak.mjs, scripts/page_picture.mjs, scripts/web_harness.mjs).
// A frozen plain object, made at the call from what the page holds; the few things the page
// does not keep (what was seen since the scene was loaded: frames, frames with cavities, phases,
// the lowest pressure, errors) are counted here, not in the app's state. Fields:
// frames counts every frame since the page opened; the others start again at each load.
//   ready backend module version crossOriginIsolated workerCrossOriginIsolated simThreads
//   scenes scene loaded warm (null until the worker's warm-up after the load ended, then
//   {steps ms complete}: src/sim_host.js) playing time step rtf pAtm gravity (|g|) duration quality dt drivers driverOffsets
//   cavities minPressure contacts phase positionsChecksum grabPoint dragging errors warnings
//   bannerVisible bannerLevel (error, warning or info: the banner's colour) changed (the values
//   applied since the load, [pointer, value]) shareUrl (the last link of the share button)
//   frames framesWithCavity framesWithCavityMesh cavityMeshesInScene minPressureSeen phasesSeen
//   samples (the last 300 plot samples) sampleCount render{mode quality software glRenderer
//   antialias pixelRatio draws} plots{samples capacity xMin xMax zoomed shown series
//   pressureArea cursor} pv{t pAtm points[{id t V P N c track}]} controls{show fields}
//   view{show wireframe loads[{kind id value dir origin label shown}] camera{position target
//   distance}} probeNames (the order of each sample's probes)
//   lesson (null, or the open lesson: name title step steps stepTitle scene pauseAt status
//   prediction result event{name t step missed values} explain[{name value shown}]: src/lessons.js)
import { positionsChecksum } from './physics.js';

/** state(): the app's state object; parts(): { view, plots, controls, pv, lessons } (made after this). */
export function installDebug({ state, parts }) {
  const seen = { frames: 0, withCavity: 0, withCavityMesh: 0, phases: new Set(), minPressure: null, errors: [], warnings: [] };

  function snapshot() {
    const { view, plots, controls, pv, lessons } = parts();
    const s = state(), f = s.lastFrame, meta = s.meta;
    const last = plots.samples.last();
    const act = last ? last.cavities.filter(c => !c.dormant) : [];
    const v = view.info();
    return Object.freeze({
      ready: s.ready, backend: s.backend, module: s.module, version: s.version,
      crossOriginIsolated: window.crossOriginIsolated === true, workerCrossOriginIsolated: s.workerIsolated,
      simThreads: s.simThreads,
      scenes: s.scenes.map(x => x.name), scene: s.sceneName, loaded: s.loaded, warm: s.warm ? { ...s.warm } : null, playing: s.playing,
      time: s.time, step: s.step, frames: seen.frames, rtf: s.rtf,
      pAtm: meta ? meta.pAtm : null, gravity: meta ? meta.gravity : null, duration: meta ? meta.duration : null,
      quality: meta ? meta.quality : null, dt: meta ? meta.dt : null,
      drivers: meta ? meta.drivers.map(d => ({ ...d })) : [],
      driverOffsets: f ? f.drivers.map(d => d.offset.slice()) : [],
      cavities: f ? f.cavities.length : 0,
      minPressure: act.length ? Math.min(...act.map(c => c.pressure)) : null,
      cavityMeshesInScene: v.cavityMeshes,
      framesWithCavity: seen.withCavity, framesWithCavityMesh: seen.withCavityMesh,
      minPressureSeen: seen.minPressure, phasesSeen: [...seen.phases],
      contacts: f ? f.contactCount : 0,
      phase: s.phase,
      samples: plots.samples.toArray().slice(-300).map(x => ({ t: x.t, step: x.step, contacts: x.contacts, handContacts: x.handContacts, force: x.force, hand: x.hand,
        probes: (x.probes || []).slice(),
        cavities: x.cavities.map(c => ({ id: c.id, pressure: c.pressure, volume: c.volume, air: c.air, temperature: c.temperature, dormant: c.dormant, area: c.area })) })),
      sampleCount: plots.samples.length,
      positionsChecksum: f ? positionsChecksum(f.bodies) : 0,
      grabPoint: s.loaded ? view.computeGrabPoint() : null,
      dragging: v.dragging,
      errors: seen.errors.slice(),
      warnings: seen.warnings.slice(),
      bannerVisible: !document.getElementById('banner').hidden,
      changed: (s.changed || []).map(x => x.slice()), shareUrl: s.shareUrl || null,
      bannerLevel: document.getElementById('banner').hidden ? null : (/banner-(\w+)/.exec(document.getElementById('banner').className) || [])[1] || null,
      render: v.render,
      plots: plots.info(),
      pv: pv ? pv.info() : null,
      controls: controls.info(),
      view: { show: v.show, wireframe: v.wireframe, loads: v.loads, camera: v.camera },
      probeNames: meta ? meta.probeNames.slice() : [],
      lesson: lessons ? lessons.info() : null,
    });
  }
  Object.defineProperty(window, 'suctionDebug', { value: Object.freeze({ snapshot }), enumerable: true });

  return {
    /** a scene was (re)loaded: the counts start again */
    loaded() { seen.withCavity = 0; seen.withCavityMesh = 0; seen.phases = new Set(); seen.minPressure = null; },
    /** a frame was shown (after the view took it), with the phase it showed */
    frame(f, phase) {
      seen.frames++;
      seen.phases.add(phase);
      if (f.cavities.length > 0) {
        seen.withCavity++;
        if (parts().view.info().cavityMeshes >= f.cavities.length) seen.withCavityMesh++;
      }
      for (const smp of f.samples) for (const c of smp.cavities) {
        if (!c.dormant && (seen.minPressure === null || c.pressure < seen.minPressure)) seen.minPressure = c.pressure;
      }
    },
    error(text) { seen.errors.push(text); },
    /** a warning of the simulator's (src/main.js showWarning), every one as it came */
    warning(text) { seen.warnings.push(text); },
  };
}
