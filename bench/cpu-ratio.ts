// Ratios of CPU time between two sizes of one workload, measured in the same run: the benches of
// work inside the process (`emulator.handle`), where no server and no client share the clock.
export const fmt = (n: number, digits = 3) => n.toFixed(digits);
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** CPU milliseconds this process has used. */
export const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * Runs `base` and `measured` (each answers milliseconds per operation) once to warm up, then in
 * seven alternating rounds, and prints the median ratio of measured to base with its spread.
 * `sizes` names the two: `base label|measured label`.
 */
export async function compare(label: string, goal: number, base: () => Promise<number>, measured: () => Promise<number>, sizes: string): Promise<void> {
  await base();
  await measured();
  const ratios: number[] = [];
  let b = 0;
  let m = 0;
  for (let round = 0; round < 7; round++) {
    b = await base();
    m = await measured();
    ratios.push(m / b);
  }
  const [bl, ml] = sizes.split('|');
  console.log(`${label}: ${fmt(m)} ms ${ml} vs ${fmt(b)} ms ${bl} -> median ${fmt(median(ratios), 2)}x (spread ${fmt(Math.min(...ratios), 2)}-${fmt(Math.max(...ratios), 2)}x; goal <= ${goal}x)`);
}
