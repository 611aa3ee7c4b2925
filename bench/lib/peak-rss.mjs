// Loaded with `node --import` by the benchmarks: writes the process's peak resident memory (KB)
// to PEAK_RSS_FILE when it exits, so a timed CLI run reports its own peak without a wrapper.
import { writeFileSync } from 'node:fs';

const file = process.env.PEAK_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
