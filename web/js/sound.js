// A quiet click when a stone is placed, made with Web Audio (no sound
// files to download). The player's choice is remembered on the device.

const KEY = 'fanorona.sound';

/**
 * Creates the sound player.
 * @param {Storage|null} storage where the on/off choice is kept
 * @returns {{enabled: () => boolean, setEnabled: (on: boolean) => void, play: (kind?: 'move'|'capture') => void}}
 */
export function createSound(storage) {
  let on = true;
  try {
    on = storage ? storage.getItem(KEY) !== 'off' : true;
  } catch {
    on = true;
  }
  let ctx = null;
  return {
    enabled: () => on,
    setEnabled(value) {
      on = Boolean(value);
      try {
        if (storage) storage.setItem(KEY, on ? 'on' : 'off');
      } catch {
        // Private modes may refuse storage; the choice then lasts this visit.
      }
    },
    play(kind = 'move') {
      if (!on || typeof AudioContext === 'undefined') return;
      try {
        ctx = ctx || new AudioContext();
        const now = ctx.currentTime;
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.type = 'triangle';
        osc.frequency.setValueAtTime(kind === 'capture' ? 330 : 520, now);
        osc.frequency.exponentialRampToValueAtTime(kind === 'capture' ? 180 : 300, now + 0.09);
        gain.gain.setValueAtTime(0.0001, now);
        gain.gain.exponentialRampToValueAtTime(0.12, now + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.14);
        osc.connect(gain).connect(ctx.destination);
        osc.start(now);
        osc.stop(now + 0.15);
      } catch {
        // No audio on this device: play silently.
      }
    },
  };
}
