// A small JS stand-in for the wasm module's API (docs/wasm-api.md, summarised in
// docs/web.md): same methods, same types, toy physics. It lets the front end's logic be tested
// under node (web/test/*.test.mjs) and the page run without the wasm module (?backend=mock).
// Toy physics: a driven cup follows its driver and is squashed on the highest fixed body; while
// its lip touches, a cavity traps air (N = P*V constant once sealed, expelled above P_max,
// leaking back at leak_rate), so pulling lowers the pressure until the seal lets go.

function evalNumber(v, params) {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.startsWith('=')) {
    const names = Object.keys(params);
    // mock only: the real loader has its own expression parser
    // eslint-disable-next-line no-new-func
    const f = new Function(...names, 'pi', 'sqrt', 'sin', 'cos', 'tan', 'abs', 'min', 'max', 'exp', 'log',
      `return (${v.slice(1).replace(/\^/g, '**')});`);
    return f(...names.map(n => params[n]), Math.PI, Math.sqrt, Math.sin, Math.cos, Math.tan, Math.abs,
      Math.min, Math.max, Math.exp, Math.log);
  }
  throw new Error(`expected a number, got ${JSON.stringify(v)}`);
}

function box(sx, sy, sz, c = [0, 0, 0]) {
  const p = [], idx = [];
  for (let i = 0; i < 8; ++i) p.push(c[0] + ((i & 1) ? sx : -sx) / 2, c[1] + ((i & 2) ? sy : -sy) / 2, c[2] + ((i & 4) ? sz : -sz) / 2);
  const q = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
  for (const [a, b, cc, d] of q) idx.push(a, b, cc, a, cc, d);
  return { p, idx };
}

/** Closed frustum: radius r0 at z0, r1 at z1, n segments. */
function frustum(r0, z0, r1, z1, n = 24, c = [0, 0, 0]) {
  const p = [], idx = [];
  for (let k = 0; k < n; ++k) { const a = 2 * Math.PI * k / n; p.push(c[0] + r0 * Math.cos(a), c[1] + r0 * Math.sin(a), c[2] + z0); }
  for (let k = 0; k < n; ++k) { const a = 2 * Math.PI * k / n; p.push(c[0] + r1 * Math.cos(a), c[1] + r1 * Math.sin(a), c[2] + z1); }
  p.push(c[0], c[1], c[2] + z0, c[0], c[1], c[2] + z1);
  const b = 2 * n, t = 2 * n + 1;
  for (let k = 0; k < n; ++k) {
    const k1 = (k + 1) % n;
    idx.push(k, k1, n + k1, k, n + k1, n + k, b, k1, k, t, n + k, n + k1);
  }
  return { p, idx };
}

export class MockSimulator {
  constructor() { this.scene = null; this.text = ''; this.overrides = []; this._cav = null; }

  load(text, baseDir = '') {
    this.overrides = [];
    this.baseDir = baseDir;
    return this._build(text);
  }

  _build(text) {
    let scene;
    try { scene = JSON.parse(text); } catch (e) { return `: invalid JSON: ${e.message}`; }
    const errors = [];
    for (const [ptr, val] of this.overrides) {
      const err = applyOverride(scene, ptr, val);
      if (err) errors.push(`${ptr}: ${err}`);
    }
    if (!Array.isArray(scene.bodies)) errors.push('/bodies: missing required key \'bodies\'');
    const params = {};
    for (const [k, p] of Object.entries(scene.parameters || {})) {
      if (k === 'comment' || k === '$schema') continue;
      params[k] = p.default;
    }
    const st = scene.settings || {};
    const num = (v, dflt, ptr) => {
      if (v === undefined) return dflt;
      try { return evalNumber(v, params); } catch (e) { errors.push(`${ptr}: ${e.message}`); return dflt; }
    };
    const dt = num(st.dt, 0.01, '/settings/dt');
    if (!(dt > 0)) errors.push(`/settings/dt: expected a value > 0, got ${dt}`);
    const cav = st.cavity || {};
    const bodies = [];
    (scene.bodies || []).forEach((b, i) => {
      const pos = (b.position || [0, 0, 0]).map((v, j) => num(v, 0, `/bodies/${i}/position/${j}`));
      const m = b.mesh || {};
      let g;
      if (m.generator === 'cup') {
        const r = num(m.radius, 0.0175, `/bodies/${i}/mesh/radius`), h = num(m.height, 0.015, `/bodies/${i}/mesh/height`);
        g = frustum(r, 0, 0.25 * r, h, 24, pos);
      } else if (m.generator === 'box') {
        const s = (m.size || [0.01, 0.01, 0.01]).map((v, j) => num(v, 0.01, `/bodies/${i}/mesh/size/${j}`));
        g = box(s[0], s[1], s[2], pos);
      } else {
        const r = num(m.radius, 0.01, `/bodies/${i}/mesh/radius`);
        g = box(2 * r, 2 * r, 2 * r, pos);
      }
      const mat = (scene.materials || {})[b.material] || {};
      // a toy mass: the density (1000 kg/m³ when not a number) times the bounding box's volume
      const ext = [0, 1, 2].map(c => { let lo = Infinity, hi = -Infinity; for (let k = c; k < g.p.length; k += 3) { lo = Math.min(lo, g.p[k]); hi = Math.max(hi, g.p[k]); } return hi - lo; });
      const density = typeof mat.density === 'number' ? mat.density : 1000;
      bodies.push({ name: b.name, type: b.type, rest: Float32Array.from(g.p), pos: Float32Array.from(g.p),
                    mass: b.type === 'fixed' ? 0 : density * ext[0] * ext[1] * ext[2],
                    idx: Uint32Array.from(g.idx), vz: 0, dz: 0,
                    friction: mat.friction === undefined ? 0.5 : num(mat.friction, 0.5, `/materials/${b.material}/friction`) });
    });
    bodies.sort((a, b) => (a.type === 'fem' ? 0 : 1) - (b.type === 'fem' ? 0 : 1));
    const drivers = (scene.drivers || []).map((d, k) => {
      const body = bodies.findIndex(b => b.name === d.body);
      if (body < 0) errors.push(`/drivers/${k}/body: unknown body '${d.body}'`);
      const segs = [];
      let t = 0, x = [0, 0, 0];
      for (const [j, s] of (d.segments || []).entries()) {
        if (s.hold !== undefined) { const dur = num(s.hold, 0, `/drivers/${k}/segments/${j}/hold`); segs.push({ t0: t, t1: t + dur, x0: x.slice(), x1: x.slice() }); t += dur; }
        else if (s.move) {
          const dur = num(s.duration, 1, `/drivers/${k}/segments/${j}/duration`);
          const x1 = x.map((v, c) => v + num(s.move[c], 0, `/drivers/${k}/segments/${j}/move/${c}`));
          segs.push({ t0: t, t1: t + dur, x0: x.slice(), x1 }); t += dur; x = x1;
        }
      }
      return { name: d.name, body, segs, offset: [0, 0, 0], reaction: [0, 0, 0], end: x };
    });
    if (errors.length) return errors.join('\n');
    this.scene = scene; this.text = text; this.params = params;
    this._dt = dt;
    this._duration = num(st.duration, 1, '/settings/duration');
    this._pAtm = num(st.p_atm, 101325, '/settings/p_atm');
    this._pMax = num(cav.p_max, this._pAtm, '/settings/cavity/p_max');
    this._leak = num(cav.leak_rate, 0, '/settings/cavity/leak_rate');
    this._bodies = bodies; this._drivers = drivers;
    this._probeNames = (scene.probes || []).map(p => p.name);
    this.reset();
    return '';
  }

  // quality levels: the mock remembers the name and runs the scene as written at both (the
  // derivation is the core's, scene/quality.cpp; the mock's physics is a toy anyway)
  setQuality(name) {
    if (name !== 'reference' && name !== 'interactive') return `unknown quality '${name}'; qualities: reference, interactive`;
    this._quality = name;
    if (this.scene || this.text) this._build(this.text);
    return '';
  }
  quality() { return this._quality || 'reference'; }
  qualityChanges() { return []; }

  setOverride(pointer, value) {
    let v;
    try { v = JSON.parse(value); } catch { v = value; }
    const saved = this.overrides.slice();
    this.overrides.push([pointer, v]);
    const err = this._build(this.text);
    if (err) { this.overrides = saved; this._build(this.text); return err; }
    return '';
  }

  // live tuning: the override without a reset; a change under /bodies (the mock's meshes) is
  // refused as the core refuses another mesh (model/compare.h)
  tune(pointer, value) {
    if (!this.scene) return 'no scene loaded';
    const m = /^\/bodies\/(\d+)\//.exec(pointer);
    if (m) {
      const b = (this.scene.bodies || [])[+m[1]];
      return `cannot change while the simulation runs: body '${b ? b.name : m[1]}': its mesh differs; change it with a reset`;
    }
    const keep = {
      t: this._t, n: this._n, cav: this._cav, contacts: this._contacts, bodyContacts: this._bodyContacts,
      bodies: this._bodies.map(b => ({ pos: b.pos.slice(), vz: b.vz, dz: b.dz })),
      drivers: this._drivers.map(d => ({ offset: d.offset.slice(), reaction: d.reaction.slice() })),
    };
    const err = this.setOverride(pointer, value);
    this._t = keep.t; this._n = keep.n; this._cav = keep.cav; this._contacts = keep.contacts; this._bodyContacts = keep.bodyContacts;
    keep.bodies.forEach((k, i) => { this._bodies[i].pos.set(k.pos); this._bodies[i].vz = k.vz; this._bodies[i].dz = k.dz; });
    keep.drivers.forEach((k, i) => { this._drivers[i].offset = k.offset; this._drivers[i].reaction = k.reaction; });
    return err;
  }

  reset() {
    this._t = 0; this._n = 0; this._cav = null; this._contacts = []; this._bodyContacts = this._bodies.map(() => 0);
    for (const b of this._bodies) { b.pos.set(b.rest); b.vz = 0; b.dz = 0; }
    for (const d of this._drivers) { d.offset = [0, 0, 0]; d.reaction = [0, 0, 0]; }
    this._groundTop = -Infinity;
    for (const b of this._bodies) if (b.type === 'fixed') for (let i = 2; i < b.pos.length; i += 3) this._groundTop = Math.max(this._groundTop, b.pos[i]);
    this._profile = { leakMs: 0, freeMotionMs: 0, collisionMs: 0, cavitiesMs: 0, complianceMs: 0, solveMs: 0, correctionMs: 0,
                      totalMs: 0, contacts: 0, constraints: 0, cavities: 0, iterations: 0, residual: 0, factorizations: 0,
                      cgIterations: 0 };
  }

  _driverDisp(d, t) {
    let x = [0, 0, 0];
    for (const s of d.segs) {
      if (t >= s.t1) { x = s.x1; continue; }
      if (t >= s.t0) { const f = (t - s.t0) / (s.t1 - s.t0); x = s.x0.map((v, c) => v + f * (s.x1[c] - v)); }
      break;
    }
    if (d.segs.length && t >= d.segs[d.segs.length - 1].t1) x = d.end;
    return x.map((v, c) => v + d.offset[c]);
  }

  step(n = 1) {
    for (let s = 0; s < n; ++s) {
      if (this._dt > 0.05) return `diverging step: the solver did not converge (dt = ${this._dt} s is too large for the mock)`;
      this._t += this._dt; this._n += 1;
      const g = this._groundTop;
      this._contacts = [];
      this._bodyContacts = this._bodies.map(() => 0);
      const driven = new Set(this._drivers.map(d => d.body));
      for (let bi = 0; bi < this._bodies.length; ++bi) {
        const b = this._bodies[bi];
        if (b.type === 'fixed') continue;
        let disp;
        if (driven.has(bi)) disp = this._driverDisp(this._drivers.find(d => d.body === bi), this._t);
        else { b.vz -= 9.81 * this._dt; b.dz += b.vz * this._dt; disp = [0, 0, b.dz]; }
        let lipZ = Infinity;
        for (let i = 0; i < b.pos.length; i += 3) {
          b.pos[i] = b.rest[i] + disp[0]; b.pos[i + 1] = b.rest[i + 1] + disp[1];
          b.pos[i + 2] = b.rest[i + 2] + disp[2];
          lipZ = Math.min(lipZ, b.pos[i + 2]);
        }
        if (lipZ < g) {
          for (let i = 2; i < b.pos.length; i += 3) if (b.pos[i] < g) b.pos[i] = g;
          if (!driven.has(bi)) { b.vz = 0; b.dz += g - lipZ; }
          for (let i = 0; i < b.pos.length && this._contacts.length < 60; i += 3) {
            if (Math.abs(b.pos[i + 2] - g) < 1e-9) { this._contacts.push(b.pos[i], b.pos[i + 1], g, 0, 0, 2000 * (g - lipZ)); this._bodyContacts[bi]++; }
          }
        }
        if (driven.has(bi)) this._cavityStep(b, lipZ, bi);
      }
      this._profile = { leakMs: 0.01, freeMotionMs: 0.2, collisionMs: 0.1, cavitiesMs: this._cav ? 0.3 : 0, complianceMs: 0.4,
                        solveMs: 0.2, correctionMs: 0.02, totalMs: 1.2, contacts: this._contacts.length / 6,
                        constraints: this._contacts.length / 2, cavities: this._cav ? 1 : 0, iterations: 10, residual: 1e-7,
                        factorizations: 1, cgIterations: 0 };
    }
    return '';
  }

  _cavityStep(b, lipZ, bi) {
    const g = this._groundTop;
    const r = 0.6 * Math.hypot(b.rest[0] - b.rest[3 * 48], b.rest[1] - b.rest[3 * 48 + 1]) || 0.01;
    const area = Math.PI * r * r;
    const pen = g - lipZ;                     // how far the lip is pushed below the surface
    const V = area * Math.max(1e-4, 0.004 - 0.6 * Math.max(0, pen) + Math.max(0, -pen));
    if (!this._cav) {
      if (pen > 0) this._cav = { id: 0, V, N: this._pAtm * V, outflow: 0, area, r };
      return;
    }
    const c = this._cav;
    c.V = V;
    let P = c.N / V;
    c.outflow = 0;
    if (P > this._pMax) { c.outflow = c.N - this._pMax * V; c.N = this._pMax * V; P = this._pMax; }
    c.N += this._leak * (this._pAtm - P) * this._dt;
    P = c.N / V;
    c.P = P;
    const d = this._drivers.find(dd => dd.body === bi);
    d.reaction = [0, 0, (this._pAtm - P) * area];
    if (-pen > 0.003 || P < 0.2 * this._pAtm) this._cav = null; // the seal lets go
  }

  time() { return this._t; }
  stepCount() { return this._n; }
  dt() { return this._dt; }
  duration() { return this._duration; }
  pAtm() { return this._pAtm; }
  gravity() { return 9.81; }
  sceneName() { return this.scene.name || ''; }
  sceneDescription() { return this.scene.description || ''; }
  bodyCount() { return this._bodies.length; }
  bodyName(i) { return this._bodies[i].name; }
  bodyIsSoft(i) { return this._bodies[i].type === 'fem'; }
  bodyIsFixed(i) { return this._bodies[i].type === 'fixed'; }
  surfacePositions(i) { return this._bodies[i].pos; }
  surfaceIndices(i) { return this._bodies[i].idx; }
  cavityCount() { return this._cav ? 1 : 0; }
  cavityInfo(k) {
    const c = this._cav;
    // the wasm module computes the holding force in the core; the mock's cavity is a flat disc
    const pressure = c.N / c.V;
    return { id: c.id, pressure, volume: c.V, air: c.N, outflow: c.outflow, dormant: false, bodies: [0, this._bodies.length - 1],
             area: c.area, normal: [0, 0, 1], holdingForce: (this._pAtm - pressure) * c.area };
  }
  cavityPositions(k) {
    const c = this._cav;
    return frustum(c.r, 0, c.r, c.V / c.area, 16, [0, 0, this._groundTop]).p.reduce((a, v, i) => { a[i] = v; return a; }, new Float32Array(3 * 34));
  }
  cavityIndices(k) { return Uint32Array.from(frustum(1, 0, 1, 1, 16).idx); }
  cavitySeam(k) {
    const c = this._cav, out = new Float32Array(6 * 16);
    for (let s = 0; s < 16; ++s) {
      const a0 = 2 * Math.PI * s / 16, a1 = 2 * Math.PI * (s + 1) / 16;
      out.set([c.r * Math.cos(a0), c.r * Math.sin(a0), this._groundTop, c.r * Math.cos(a1), c.r * Math.sin(a1), this._groundTop], 6 * s);
    }
    return out;
  }
  contactCount() { return this._contacts.length / 6; }
  // per body, the contacts touching it (the mock's are all with the fixed top surface, which is not counted)
  bodyContactCounts() { return this._bodyContacts.slice(); }
  bodyMass(i) { return this._bodies[i] ? this._bodies[i].mass : 0; }
  bodyCenterOfMass(i) {
    const b = this._bodies[i];
    if (!b) return [];
    const c = [0, 0, 0], n = b.pos.length / 3;
    for (let k = 0; k < b.pos.length; ++k) c[k % 3] += b.pos[k] / n;
    return c;
  }
  contacts() { return Float32Array.from(this._contacts); }
  springCount() { return 0; }
  springs() { return new Float32Array(0); }
  probeNames() { return this._probeNames.slice(); }
  takeWarnings() { return []; }  // the mock has no watchdog
  probeValues() { return new Float64Array(this._probeNames.length); }
  profile() { return { ...this._profile }; }
  driverCount() { return this._drivers.length; }
  driverName(k) { return this._drivers[k].name; }
  driverBody(k) { return this._drivers[k].body; }
  setDriverOffset(k, x, y, z) { this._drivers[k].offset = [x, y, z]; }
  driverOffset(k) { return this._drivers[k].offset.slice(); }
  driverReaction(k) { return this._drivers[k].reaction.slice(); }
  parameters() {
    return Object.entries(this.scene.parameters || {}).filter(([k]) => k !== 'comment' && k !== '$schema')
      .map(([name, p]) => ({ name, value: this.params[name], min: p.min ?? -Infinity, max: p.max ?? Infinity }));
  }
  csvHeader() { return 'step,t'; }
  csvRow() { return `${this._n},${this._t}`; }
  delete() {}
}

function applyOverride(scene, pointer, value) {
  const toks = pointer.split('/').slice(1).map(t => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (toks[0] === 'parameters' && toks.length === 2) {
    if (!scene.parameters || !scene.parameters[toks[1]]) return `unknown parameter '${toks[1]}'`;
    scene.parameters[toks[1]].default = value; return '';
  }
  let cur = scene;
  for (let i = 0; i < toks.length - 1; ++i) {
    if (cur === null || typeof cur !== 'object' || !(toks[i] in cur)) return 'override: no such location in the scene';
    cur = cur[toks[i]];
  }
  if (cur === null || typeof cur !== 'object') return 'override: no such location in the scene';
  cur[toks[toks.length - 1]] = value;
  return '';
}

export function createMockModule() {
  return { version: () => 'mock', Simulator: MockSimulator };
}
