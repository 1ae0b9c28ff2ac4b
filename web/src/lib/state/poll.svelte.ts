// Following something that changes on the server (a finalization, a
// broadcast, a launch) by asking again while it runs: `tick` reads it and
// answers how long to wait before the next read, or null to stop. The
// reads pause while the tab is hidden and start again when it is shown.
//
//   const follow = poller(async () => {
//     run = await hiring.finalization();
//     return run.status === 'running' ? 1000 : null;
//   });
//   follow.start();
export class Poller {
  // hidden: the tab is hidden, so nothing is read.
  hidden = $state(typeof document !== 'undefined' && document.visibilityState === 'hidden');
  #timer: ReturnType<typeof setTimeout> | undefined;
  // waiting: a read is due once the tab is shown again.
  #waiting = false;
  #inflight = false;
  // again: a read was asked for while one was under way.
  #again = false;
  #gone = false;

  constructor(
    private readonly tick: () => Promise<number | null>,
    private readonly resumed?: () => void,
  ) {}

  // start reads after delay (at once by default), then as tick says.
  start = (delay = 0): void => {
    this.#clear();
    if (this.#gone) return;
    if (this.hidden) this.#waiting = true;
    else if (delay > 0) this.#timer = setTimeout(() => void this.#read(), delay);
    else void this.#read();
  };

  stop(): void {
    this.#clear();
    this.#waiting = false;
  }

  // shown follows the tab's visibility.
  shown(visible: boolean): void {
    this.hidden = !visible;
    if (!visible) {
      if (this.#timer !== undefined) this.#waiting = true;
      this.#clear();
    } else if (this.#waiting) {
      this.#waiting = false;
      this.resumed?.();
      void this.#read();
    }
  }

  dispose(): void {
    this.#gone = true;
    this.#clear();
  }

  async #read(): Promise<void> {
    this.#timer = undefined;
    if (this.#gone) return;
    if (this.#inflight) {
      this.#again = true;
      return;
    }
    this.#inflight = true;
    let next: number | null;
    try {
      next = await this.tick();
    } finally {
      this.#inflight = false;
    }
    if (this.#again) {
      this.#again = false;
      next = 0;
    }
    if (next !== null) this.start(next);
  }

  #clear(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

// poller follows the tab's visibility and stops with the component; call
// it during component initialisation. resumed runs before the read that
// follows the tab being shown again.
export function poller(tick: () => Promise<number | null>, resumed?: () => void): Poller {
  const p = new Poller(tick, resumed);
  $effect(() => {
    const onvis = () => p.shown(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', onvis);
    return () => {
      document.removeEventListener('visibilitychange', onvis);
      p.dispose();
    };
  });
  return p;
}
