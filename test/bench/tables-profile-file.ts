/**
 * Profiles one CSV file from disk with the table engine (the same one-pass reader and profiler an
 * upload runs) and prints {seconds, cpuSeconds, maxRssMb, rows} as JSON. Run in its own process so
 * its peak memory is its own: `node --import tsx test/bench/tables-profile-file.ts <file>`.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { readCsv } from '../../functions/tables/csv-reader.ts';
import { TableProfiler } from '../../functions/tables/profile.ts';

/**
 * This process's peak resident memory. Linux's ru_maxrss (`process.resourceUsage().maxRSS`) carries
 * over the peak of the process that spawned this one (the bench, with DuckDB loaded: ~250 MB);
 * VmHWM is this program's own.
 */
function peakRssMb(): number {
  let status = '';
  try {
    status = readFileSync('/proc/self/status', 'utf8');
  } catch {
    // Not Linux: ru_maxrss it is.
  }
  const hwm = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  return hwm ? Number(hwm) / 1024 : process.resourceUsage().maxRSS / 1024;
}

const file = process.argv[2]!;
const cpu0 = process.cpuUsage();
const started = performance.now();
const profiler = new TableProfiler();
// Chunks of 64 KB (the stream default), as an upload reads them: an S3 body arrives in pieces of at
// most 64 KB (16 KB TLS records in the cloud), which the reader copies into its blocks.
const read = await readCsv(createReadStream(file), { header: (n, d) => profiler.header(n, d), record: (r, i) => profiler.record(r, i) });
const summary = profiler.finish();
const cpu = process.cpuUsage(cpu0);
console.log(
  JSON.stringify({
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    maxRssMb: peakRssMb(),
    rows: read.rowCount,
    estimated: summary.profile.filter((c) => c.is_estimated).map((c) => c.name),
  }),
);
