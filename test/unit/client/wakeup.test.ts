import { describe, expect, it } from 'vitest';
import { Wakeup } from '../../../src/client/wakeup.js';
import { VirtualClock } from './virtual-clock.js';

describe('Wakeup', () => {
  it('lets a waiter go on notify, and drops a ring while nobody waits', async () => {
    const clock = new VirtualClock();
    const wakeup = new Wakeup(clock.sleep);
    wakeup.notify();
    let woken = false;
    const waiting = wakeup.wait().then(() => (woken = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(woken).toBe(false);
    wakeup.notify();
    await waiting;
    expect(woken).toBe(true);
  });

  it('lets a waiter go when its time has passed, and cancels the timer when notified first', async () => {
    const clock = new VirtualClock();
    const wakeup = new Wakeup(clock.sleep);
    const timed = wakeup.wait(250);
    await clock.run();
    await timed;
    expect(clock.now()).toBe(250);
    const early = wakeup.wait(1_000);
    wakeup.notify();
    await early;
    await clock.run();
    // The cancelled 1 s timer did not move the clock.
    expect(clock.now()).toBe(250);
  });
});
