#!/usr/bin/env node
// The `tinylingo` command an npm install puts on the PATH: it finds the native binary in the
// platform package npm installed next to this one (an optional dependency chosen by its `os` and
// `cpu` fields) and runs it. Nothing is downloaded and no install script runs, so it works with
// `--ignore-scripts` and from a mirror of the registry.
//
// This launcher is for people typing commands. The assistants' hooks never run it: `install`
// registers `<store>/scripts/tinylingo`, a link to the native binary itself, because a Node
// start would cost tens of milliseconds in front of every prompt.
'use strict';

const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

// The platforms a package is published for: `${process.platform}-${process.arch}`.
const PLATFORMS = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64'];

const platform = `${process.platform}-${process.arch}`;
const exe = process.platform === 'win32' ? 'tinylingo.exe' : 'tinylingo';

/** The native binary's path, or null when its package is not installed. */
function nativeBinary() {
  try {
    // Resolved from this file: the nested or the hoisted copy, whichever npm made. Node returns
    // the real path (links resolved), the one `install` should point the scripts link at.
    const manifest = require.resolve(`tinylingo-${platform}/package.json`);
    const binary = path.join(path.dirname(manifest), 'bin', exe);
    return fs.existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

function missing() {
  const lines = [`tinylingo: no binary for this platform (${platform}).`];
  if (PLATFORMS.includes(platform)) {
    lines.push(
      `The package tinylingo-${platform}, an optional dependency of tinylingo, was not installed:`,
      'installs with --omit=optional (or --no-optional), or a lockfile made on another platform,',
      'leave it out. Install again without those: npm install -g tinylingo',
    );
  } else {
    lines.push(`Prebuilt binaries exist for: ${PLATFORMS.join(', ')}.`);
  }
  lines.push(
    'Or build it from source (Rust 1.91 or newer), from a clone of the repository:',
    '  cargo install --locked --path .',
  );
  process.stderr.write(lines.join('\n') + '\n');
  process.exit(1);
}

/**
 * The hooks run `<store>/scripts/tinylingo`, a link to the native binary that ran `install`.
 * An npm upgrade replaces that binary at the same path, so the link stays valid; if the path
 * moved (the install went to another prefix, npx's cache was cleared and filled again), the
 * link dangles and every hook fails. Then, and only when the missing target was an npm
 * platform package's binary (a link to a cargo build is left to its owner), point the link at
 * this binary again: one lstat per command, nothing on the hook's own path.
 */
function repairLink(binary) {
  if (process.platform === 'win32') return;
  const store = process.env.TINYLINGO_HOME || path.join(os.homedir(), '.config', 'tinylingo');
  const link = path.join(store, 'scripts', 'tinylingo');
  let target;
  try {
    target = fs.readlinkSync(link);
  } catch {
    return; // no link: nothing installed (or not a link): nothing of ours to repair
  }
  if (fs.existsSync(target) || !/[\\/]node_modules[\\/]tinylingo-[^\\/]+[\\/]bin[\\/]/.test(target)) {
    return;
  }
  // The same atomic replacement `install` makes: a new link beside it, renamed over it.
  const temp = `${link}.launcher-${process.pid}`;
  try {
    fs.symlinkSync(binary, temp);
    fs.renameSync(temp, link);
    process.stderr.write(`tinylingo: the hooks' link pointed at ${target}, which is gone; it now points at ${binary}\n`);
  } catch {
    try {
      fs.unlinkSync(temp);
    } catch {}
  }
}

const binary = nativeBinary();
if (!binary) missing();
repairLink(binary);
// npx runs packages from its cache, which `npm cache clean` empties: hooks linked there break
// until a later `npx tinylingo …` re-points the link (repairLink). A global install lasts.
if (process.argv[2] === 'install' && /[\\/]_npx[\\/]/.test(binary)) {
  process.stderr.write(
    "tinylingo: running from npx's cache: the hooks will run the binary there; `npm install -g tinylingo` gives them one that stays\n",
  );
}

// argv[0] is the native binary's own path (spawn's default), which is what `install` writes
// into the scripts link (see `running_binary`): never this script, never node.
const child = spawn(binary, process.argv.slice(2), { stdio: 'inherit' });

// Signals sent to this process (a `kill` of the launcher's pid, a closing terminal) go on to the
// binary; Ctrl-C reaches both through the process group, and the binary decides what it means.
const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'].filter((s) => process.platform !== 'win32' || s === 'SIGINT');
const forward = (signal) => {
  try {
    child.kill(signal);
  } catch {}
};
for (const signal of forwarded) process.on(signal, forward);

child.on('error', (err) => {
  process.stderr.write(`tinylingo: cannot run ${binary}: ${err.message}\n`);
  process.exit(1);
});

child.on('exit', (code, signal) => {
  if (signal) {
    // Die of the same signal, so that the caller sees what the binary's caller would.
    for (const s of forwarded) process.removeListener(s, forward);
    process.kill(process.pid, signal);
    // A signal that does not end a process by default (or on Windows): the shell's convention.
    setTimeout(() => process.exit(128 + (os.constants.signals[signal] || 0)), 100);
    return;
  }
  process.exit(code === null ? 1 : code);
});
