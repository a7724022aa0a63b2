/**
 * A short low tone when the counter refuses what was scanned: the cashier looking at the customer
 * hears that nothing was added. Silent where the browser has no Web Audio.
 */
let ctx: AudioContext | null = null;

export function refusalBeep() {
  try {
    const Ctx =
      window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    ctx ??= new Ctx();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = 'square';
    osc.frequency.value = 220;
    gain.gain.value = 0.15;
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.25);
  } catch {
    // No sound: the message on screen still says it.
  }
}
