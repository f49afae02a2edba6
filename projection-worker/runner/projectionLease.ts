import type { Logger } from 'pino';
import type { Clock, ViewStore } from '../../contracts/index.ts';

export type ProjectionLeaseDeps = {
  readonly viewStore: ViewStore;
  readonly name: string;
  readonly owner: string;
  readonly ttlMs: number;
  readonly clock: Clock;
  readonly log: Logger;
  /** After every successful acquire or renewal. */
  readonly onHeld: () => void;
  /** When another owner took the lease from us. */
  readonly onLost: () => void;
};

export type ProjectionLease = {
  /** Acquires or renews now; one call in flight at a time. */
  renew(): Promise<void>;
  /** Renews every ttl/3 until `stopRenewing`, so stand-bys keep trying and take over an expired lease. */
  startRenewing(): void;
  /** Stops the timer and waits for a renewal in flight. */
  stopRenewing(): Promise<void>;
  release(): Promise<void>;
  /** Held and not expired by our own clock (a holder that cannot renew stops before others may take over). */
  isValid(): boolean;
  isClaimed(): boolean;
};

/** The lease that lets one process at a time run a projection (spec operations §2). */
export function createProjectionLease(deps: ProjectionLeaseDeps): ProjectionLease {
  const { viewStore, name, owner, ttlMs, clock, log } = deps;
  let holding = false;
  let validUntil = 0;
  let inFlight: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let renewing = false;

  async function attempt(): Promise<void> {
    const until = clock.now() + ttlMs;
    let acquired: boolean;
    try {
      acquired = await viewStore.acquireLease(name, owner, ttlMs);
    } catch (err) {
      // Unknown outcome: keep what we had until it expires by our own clock.
      log.warn({ err }, 'lease renewal failed');
      return;
    }
    if (acquired) {
      validUntil = until;
      if (!holding) log.info({ owner }, 'projection lease acquired');
      holding = true;
      deps.onHeld();
    } else if (holding) {
      holding = false;
      log.warn({ owner }, 'projection lease lost');
      deps.onLost();
    }
  }

  function renew(): Promise<void> {
    inFlight ??= attempt().finally(() => {
      inFlight = null;
    });
    return inFlight;
  }

  function schedule(): void {
    timer = setTimeout(
      () => {
        void renew().finally(() => {
          if (renewing) schedule();
        });
      },
      Math.max(1, Math.floor(ttlMs / 3)),
    );
  }

  return {
    renew,
    startRenewing() {
      if (renewing) return;
      renewing = true;
      schedule();
    },
    async stopRenewing() {
      renewing = false;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      await inFlight;
    },
    async release() {
      if (!holding) return;
      holding = false;
      validUntil = 0;
      try {
        await viewStore.releaseLease(name, owner);
      } catch (err) {
        log.warn({ err }, 'lease release failed');
      }
    },
    isValid: () => holding && clock.now() < validUntil,
    isClaimed: () => holding,
  };
}
