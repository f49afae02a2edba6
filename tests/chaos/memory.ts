// Resident memory of every process, sampled while the run lasts; the leak check compares the end of each
// process's life with its warmed-up size.
import { MEMBER_NAMES, residentBytes, type Cluster } from './cluster.ts';
import type { Recorder } from './recorder.ts';

export type RssSample = { readonly t: number; readonly mb: number };
export type MemoryTrack = Map<string, RssSample[]>;

const SAMPLE_EVERY_MS = 5000;
/** A process is warmed up this long after its start; shorter lives are not leak-checked. */
export const WARM_AFTER_MS = 30_000;

export function startMemorySampler(cluster: Cluster, startedAt: number): { track: MemoryTrack; stop(): void } {
  const track: MemoryTrack = new Map();
  const sample = async (): Promise<void> => {
    for (const name of MEMBER_NAMES) {
      const member = cluster.member(name);
      const pid = member.proc?.child.pid;
      if (pid === undefined || member.paused) continue;
      const bytes = await residentBytes(pid);
      if (bytes === null) continue;
      const key = `${name}#${member.incarnation}`;
      const samples = track.get(key) ?? [];
      samples.push({ t: Math.round((Date.now() - startedAt) / 1000), mb: Math.round(bytes / 1048576) });
      track.set(key, samples);
    }
  };
  const timer = setInterval(() => void sample(), SAMPLE_EVERY_MS);
  void sample();
  return { track, stop: () => clearInterval(timer) };
}

export type LeakCheck = { readonly process: string; readonly warmMb: number; readonly endMb: number; readonly limitMb: number };

/**
 * The warmed-up size of a process life is its largest sample in the 30 s after warm-up; at the end of the life its
 * RSS must stay within `factor` × that + `slackMb`. Lives shorter than a minute are skipped.
 */
export function checkMemory(track: MemoryTrack, recorder: Recorder, factor: number, slackMb: number): LeakCheck[] {
  const checks: LeakCheck[] = [];
  for (const [process, samples] of track) {
    const first = samples[0];
    const last = samples.at(-1);
    if (!first || !last || last.t - first.t < 60) continue;
    const warm = samples.filter((s) => s.t - first.t >= WARM_AFTER_MS / 1000 && s.t - first.t < WARM_AFTER_MS / 500);
    const warmMb = Math.max(...warm.map((s) => s.mb));
    const limitMb = Math.round(warmMb * factor + slackMb);
    checks.push({ process, warmMb, endMb: last.mb, limitMb });
    recorder.count('checks:memory');
    if (last.mb > limitMb)
      recorder.violation('memory-within-bound-of-warm-size', `${process}: ${last.mb} MB at the end, warm ${warmMb} MB, bound ${limitMb} MB`);
  }
  return checks;
}
