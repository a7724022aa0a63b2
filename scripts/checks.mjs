// The first step of `npm test`: lint beside the type check and the build (each mostly on one
// core), so the two cores of a small machine both work. Each one's output is printed when it
// ends; the step fails if either fails.
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const steps = [['lint'], ['typecheck', 'build']];

function run(scripts) {
  return scripts.reduce(
    (previous, script) =>
      previous.then((ok) => {
        if (!ok) return false;
        return new Promise((resolve) => {
          const child = spawn(npm, ['run', script], { stdio: ['ignore', 'pipe', 'pipe'] });
          let out = '';
          child.stdout.on('data', (d) => (out += d));
          child.stderr.on('data', (d) => (out += d));
          child.on('close', (code) => {
            process.stdout.write(out);
            if (code !== 0) console.error(`npm run ${script} terminó con código ${code}`);
            resolve(code === 0);
          });
        });
      }),
    Promise.resolve(true),
  );
}

const results = await Promise.all(steps.map(run));
process.exit(results.every(Boolean) ? 0 : 1);
