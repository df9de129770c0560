// The board's sounds, made here with Web Audio (oscillators and a little
// filtered noise), no sound files: select, match, blocked, shuffle, win.
// Browsers let a page make sound only after the player's first tap or key,
// and a page that plays nothing before then asks nothing: the audio context
// is made at the first gesture, never before, and only if sound is on.

const GESTURES = ["pointerdown", "keydown"];

export class Sound {
  constructor(on) {
    this.on = on;
    this.ctx = null;
    this.noise = null;
    this.played = 0; // for tests: how many sounds were started
    this.wake = () => this.#wake();
    for (const type of GESTURES) document.addEventListener(type, this.wake, { capture: true });
  }

  setOn(on) {
    this.on = on;
    if (on) this.#wake();
  }

  #wake() {
    if (!this.on || this.ctx) return;
    const Context = globalThis.AudioContext || globalThis.webkitAudioContext;
    if (!Context) return;
    this.ctx = new Context();
    for (const type of GESTURES) document.removeEventListener(type, this.wake, { capture: true });
    // A second of white noise, for the clack of tiles and the shuffle's riffle.
    const rate = this.ctx.sampleRate;
    this.noise = this.ctx.createBuffer(1, rate, rate);
    const data = this.noise.getChannelData(0);
    for (let k = 0; k < data.length; k++) data[k] = Math.random() * 2 - 1;
  }

  /** A tone: `type` wave from `f0` to `f1` Hz, starting `at` s from now, lasting `len` s. */
  #tone(type, f0, f1, at, len, peak) {
    const ctx = this.ctx;
    const t = ctx.currentTime + at;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = type;
    osc.frequency.setValueAtTime(f0, t);
    osc.frequency.exponentialRampToValueAtTime(f1, t + len);
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(peak, t + 0.008);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + len);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + len + 0.02);
  }

  /** A burst of band-passed noise: a tile's clack (short) or a riffle (long). */
  #noise(freq, at, len, peak, q = 1.2) {
    const ctx = this.ctx;
    const t = ctx.currentTime + at;
    const src = ctx.createBufferSource();
    src.buffer = this.noise;
    const band = ctx.createBiquadFilter();
    band.type = "bandpass";
    band.frequency.value = freq;
    band.Q.value = q;
    const gain = ctx.createGain();
    gain.gain.setValueAtTime(peak, t);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + len);
    src.connect(band).connect(gain).connect(ctx.destination);
    src.start(t, Math.random() * 0.5, len + 0.02);
  }

  play(name) {
    if (!this.on || !this.ctx) return;
    if (this.ctx.state === "suspended") this.ctx.resume();
    this.played++;
    switch (name) {
      case "select":
        this.#noise(2600, 0, 0.05, 0.35, 3);
        this.#tone("sine", 880, 990, 0, 0.08, 0.08);
        break;
      case "match":
        this.#noise(2200, 0, 0.06, 0.45, 3);
        this.#noise(1900, 0.07, 0.06, 0.35, 3);
        this.#tone("triangle", 784, 784, 0.05, 0.28, 0.12);
        this.#tone("triangle", 1175, 1175, 0.11, 0.32, 0.1);
        break;
      case "blocked":
        this.#tone("square", 180, 120, 0, 0.14, 0.05);
        break;
      case "shuffle":
        for (let k = 0; k < 7; k++) this.#noise(1800 + k * 220, k * 0.05, 0.05, 0.28, 4);
        break;
      case "win":
        [523, 659, 784, 1047, 1319].forEach((f, k) => this.#tone("triangle", f, f, k * 0.11, 0.5, 0.12));
        this.#tone("sine", 1568, 1568, 0.6, 0.9, 0.06);
        break;
      default:
        this.played--;
    }
  }
}
