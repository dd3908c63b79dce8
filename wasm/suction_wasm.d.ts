// TypeScript declarations of the suction WebAssembly module (hand-written: Emscripten 3.1.6
// has no --emit-tsd).  Reference: docs/wasm-api.md.  Units: SI (m, s, N, Pa, J), times of
// profile() in ms.
//
// Typed arrays returned by the Simulator are VIEWS onto wasm memory, not copies: re-acquire
// them after every load / setOverride / clearOverrides / step / reset (and after the next call
// of the same getter); memory growth detaches old views (their length becomes 0).
//
// The objects below (ProfileInfo, CavityInfo, Parameter) are registered once in bindings.cpp
// (Embind value_object) and arrive as plain objects; wasm/tests/test_dts.js checks that this
// file and the module agree: every method of Simulator and SuctionModule, every field.

export interface CavityInfo {
  id: number;          // stable identity across recomputations
  pressure: number;    // absolute pressure [Pa]
  volume: number;      // [m³]
  air: number;         // N = P·V [J]
  outflow: number;     // ΔN of the last step (≤ 0: air pushed out) [J]
  temperature: number; // the air's temperature [K] (settings.cavity.gas; ambient when isothermal)
  dormant: boolean;    // flattened: remembered but exerts no force
  bodies: number[];    // the body indices (body slots) that bound it, ascending (two or more)
  area: number;        // projected area along the seal's normal [m²]
  normal: number[];    // unit normal of the sealing ring [x, y, z]
  holdingForce: number;  // (P_atm − P)·area [N]; 0 when dormant
}

/** Per-stage times [ms] and counters of the last step (the core's StepProfile). */
export interface ProfileInfo {
  leakMs: number; freeMotionMs: number; collisionMs: number; cavitiesMs: number;
  complianceMs: number; solveMs: number; correctionMs: number; totalMs: number;
  contacts: number;        // contacts found in the last step
  constraints: number;     // constraint rows
  cavities: number;        // active cavities (pressure rows)
  iterations: number;      // iterations of the constraint solver
  residual: number;        // its final residual (the common definition, docs/method.md §8.5)
  factorizations: number;  // FEM bodies factorized in the last step
  cgIterations: number;    // CG iterations of bodies that kept their factorization
}

export interface Parameter {
  name: string;
  value: number;          // current value (default or override)
  min: number | null;     // null when the scene gives none
  max: number | null;
  unit: string;           // '' when absent
  doc: string;
}

export type BodyKind = 'fem' | 'dynamic' | 'fixed' | 'kinematic';

export interface Simulator {
  /** '' on success, else the error text (scene errors: one "JSON-pointer: message" per line).
   *  Clears the overrides. The previous scene is kept on error. */
  load(sceneJsonText: string, baseDir: string): string;
  /** As the CLI's --set pointer=value; rebuilds and resets. '' or the error (old simulation kept). */
  setOverride(pointer: string, value: string): string;
  /** Live tuning: the same override, taken by the running simulation from its next step on
   *  (no reset: state, cavities and air kept; drivers go on at the new profile's velocity).
   *  '' or the error; a change of a mesh or of the scene's structure is refused with an error
   *  starting "cannot change while the simulation runs: " (setOverride applies it with a reset). */
  tune(pointer: string, value: string): string;
  /** Removes all overrides, rebuilds and resets. */
  clearOverrides(): string;
  /** The overrides in effect, "pointer=value". */
  overrides(): string[];
  /** 'reference' or 'interactive' (docs/validation.md, "Quality levels"): this and every later
   *  load; a loaded scene is rebuilt (overrides kept) and reset. '' or the error. */
  setQuality(name: 'reference' | 'interactive'): string;
  quality(): 'reference' | 'interactive';
  /** what the quality changed in the loaded scene, "pointer=value" (empty at reference) */
  qualityChanges(): string[];
  /** n steps; '' or the error of the failing step (state stays at the last good step). */
  step(n: number): string;
  /** The warnings of the steps since the last call (a failed mesh union; tunnelling, a deep
   *  contact, a body that left the stage), each naming its step; then cleared (at most 100 kept). */
  takeWarnings(): string[];
  /** Back to the initial state (driver offsets cleared). */
  reset(): void;
  loaded(): boolean;
  time(): number;          // [s]
  stepCount(): number;
  dt(): number;            // [s]
  duration(): number;      // the scene's settings.duration [s]
  pAtm(): number;          // [Pa]
  gravity(): number;       // |g| of the scene [m/s²]
  sceneName(): string;
  sceneDescription(): string;

  /** FEM bodies first, then rigid bodies; index = collision slot. */
  bodyCount(): number;
  bodyName(i: number): string;
  bodyIsSoft(i: number): boolean;
  bodyIsFixed(i: number): boolean;
  bodyKind(i: number): BodyKind | '';
  surfaceVertexCount(i: number): number;
  surfaceTriangleCount(i: number): number;
  /** x,y,z per surface vertex, world frame [m]. View: re-acquire after every step. */
  surfacePositions(i: number): Float32Array;
  /** 3 vertex indices per surface triangle (constant after load). View. */
  surfaceIndices(i: number): Uint32Array;
  /** [kg]: an FEM body's lumped masses summed, a dynamic rigid body's; 0 fixed/kinematic/bad index. */
  bodyMass(i: number): number;
  /** Centre of mass, world frame [m]; [] for a bad index. */
  bodyCenterOfMass(i: number): number[];

  cavityCount(): number;
  cavityInfo(k: number): CavityInfo;
  cavityPositions(k: number): Float32Array;   // x,y,z per cavity vertex [m]. View.
  cavityIndices(k: number): Uint32Array;      // 3 per triangle. View.
  cavitySeam(k: number): Float32Array;        // 6 floats per sealing-ring segment [m]. View.

  contactCount(): number;
  /** px,py,pz [m], fx,fy,fz [N] per contact of the last step. View. */
  contacts(): Float32Array;
  /** Per body (index), how many of the last step's contacts touch it. */
  bodyContactCounts(): number[];

  springCount(): number;
  /** End a x,y,z then end b x,y,z [m] per spring (the scene's "springs" order). View. */
  springs(): Float32Array;

  probeNames(): string[];
  /** One value per probe, in probeNames() order. View. */
  probeValues(): Float64Array;
  profile(): ProfileInfo;

  driverCount(): number;
  driverName(k: number): string;
  driverBody(k: number): number;
  /** Offset added to the driver's scripted displacement from the next step on [m]; '' or error. */
  setDriverOffset(k: number, x: number, y: number, z: number): string;
  driverOffset(k: number): [number, number, number];    // [m]
  driverReaction(k: number): [number, number, number];  // [N]

  parameters(): Parameter[];
  /** Same columns and number format as the CLI's --csv, without the line break. */
  csvHeader(): string;
  csvRow(): string;

  /** Frees the C++ object (Embind): call when done. */
  delete(): void;
}

export interface SuctionModule {
  version(): string;
  /** Writes a file into the module's file system (e.g. a mesh referenced by a scene); '' or error. */
  writeFile(path: string, data: string): string;
  /** Threads for the compliance, the calling one included (clamped to [1, 64]; always 1 in a
   *  module built without -pthread); returns the count in effect.  Same numbers for any count. */
  setThreads(n: number): number;
  threads(): number;
  Simulator: { new (): Simulator };
  /** emcc 3.1.6: the factory returns the Module with this promise. */
  ready?: Promise<SuctionModule>;
}

/** Module factory. Use: const r = createSuction(); const M = await ((r as any).ready || r); */
declare function createSuction(moduleOverrides?: Record<string, unknown>):
    Promise<SuctionModule> | SuctionModule;
export default createSuction;
