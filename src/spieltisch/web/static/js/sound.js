// @ts-check
// The optional dice sound: a short rattle made with WebAudio (filtered noise bursts, no
// files). Off by default; the choice is remembered in this browser (localStorage).
const KEY = "spieltisch.sound";
/** @type {AudioContext | null} */
let audio = null;

/** Whether the person turned the dice sound on. */
export function soundOn() {
  return localStorage.getItem(KEY) === "on";
}

function context() {
  if (!audio) {
    /** @type {typeof AudioContext | undefined} */
    const Audio = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Audio) return null;
    audio = new Audio();
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

/** The rattle of `count` dice (at most six clicks), when the sound is on. Returns whether it played.
 * @param {number} count */
export function rattle(count) {
  if (!soundOn()) return false;
  const ac = context();
  if (!ac) return false;
  const length = Math.floor(ac.sampleRate * 0.05);
  const noise = ac.createBuffer(1, length, ac.sampleRate);
  const samples = noise.getChannelData(0);
  for (let i = 0; i < length; i++) samples[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 3;
  const start = ac.currentTime + 0.02;
  for (let i = 0; i < Math.min(Math.max(count, 1) * 2, 12); i++) {
    const source = ac.createBufferSource();
    source.buffer = noise;
    const filter = ac.createBiquadFilter();
    filter.type = "bandpass";
    filter.frequency.value = 1800 + Math.random() * 2200;
    filter.Q.value = 4;
    const gain = ac.createGain();
    gain.gain.value = 0.35 * (1 - i / 14);
    source.connect(filter).connect(gain).connect(ac.destination);
    source.start(start + i * 0.045 + Math.random() * 0.03);
  }
  return true;
}

/** Wire the checkbox `box`: shows the remembered choice and remembers every change.
 * @param {HTMLInputElement | null} box */
export function initSoundToggle(box) {
  if (!box) return;
  box.checked = soundOn();
  box.addEventListener("change", () => {
    localStorage.setItem(KEY, box.checked ? "on" : "off");
    if (box.checked) context();  // created inside the click, so the browser lets it play
  });
}

// The chime of a decision or a turn that waits for the person: off by default, its own
// choice (a person may want the dice quiet and still be called to answer).
const CHIME_KEY = "spieltisch.chime";

/** Whether the person turned the chime on. */
export function chimeOn() {
  return localStorage.getItem(CHIME_KEY) === "on";
}

/** Two soft tones, when the chime is on. Returns whether it played. */
export function chime() {
  if (!chimeOn()) return false;
  const ac = context();
  if (!ac) return false;
  const start = ac.currentTime + 0.02;
  [660, 880].forEach((frequency, i) => {
    const tone = ac.createOscillator();
    tone.type = "sine";
    tone.frequency.value = frequency;
    const gain = ac.createGain();
    const at = start + i * 0.18;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.25, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.35);
    tone.connect(gain).connect(ac.destination);
    tone.start(at);
    tone.stop(at + 0.4);
  });
  return true;
}

/** Wire the chime's checkbox `box` as `initSoundToggle` does the dice sound's.
 * @param {HTMLInputElement | null} box */
export function initChimeToggle(box) {
  if (!box) return;
  box.checked = chimeOn();
  box.addEventListener("change", () => {
    localStorage.setItem(CHIME_KEY, box.checked ? "on" : "off");
    if (box.checked) context();
  });
}
