#!/usr/bin/env python3
"""Build the npm packages that carry a prebuilt mcpward binary (issue #18 §1).

    packaging/build.py --out DIR  PLATFORM=BINARY [PLATFORM=BINARY ...]

PLATFORM is one of linux-x64, linux-arm64, darwin-x64, darwin-arm64, win32-x64 (Node's
names); BINARY is the release binary for it. Writes to DIR:

- npm/mcpward-rs-<version>.tgz: the main package, a launcher (`bin/mcpward.js`) and one
  optional dependency per platform package (esbuild's and biome's pattern: no postinstall,
  no download at install or run time);
- npm/mcpward-rs-<platform>-<version>.tgz: `@mcpward-rs/<platform>`, the binary alone,
  restricted to its `os`/`cpu`.

The PyPI wheel is maturin's (`pyproject.toml`, `bindings = "bin"`): the release workflow
builds each binary once with `maturin build --release`, which writes the wheel, and packs
that same file into the release archive and, through this script, into the npm packages.

The version is Cargo.toml's. Standard library only; nothing is published here (the release
workflow publishes the files).
"""

import argparse
import io
import json
import os
import re
import shutil
import sys
import tarfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NPM_NAME = "mcpward-rs"
NPM_SCOPE = "@mcpward-rs"

# Node platform → (npm os, npm cpu, binary file name)
PLATFORMS = {
    "linux-x64": ("linux", "x64", "mcpward"),
    "linux-arm64": ("linux", "arm64", "mcpward"),
    "darwin-x64": ("darwin", "x64", "mcpward"),
    "darwin-arm64": ("darwin", "arm64", "mcpward"),
    "win32-x64": ("win32", "x64", "mcpward.exe"),
}

# Fixed times keep the archives byte-identical for the same inputs.
EPOCH = 315532800  # 1980-01-01


def cargo_field(field):
    text = open(os.path.join(ROOT, "Cargo.toml"), encoding="utf-8").read()
    package = text.split("[package]", 1)[1].split("\n[", 1)[0]
    m = re.search(r'^%s\s*=\s*"([^"]*)"' % field, package, re.M)
    if not m:
        sys.exit("packaging: no %s in Cargo.toml [package]" % field)
    return m.group(1)


def npm_tgz(path, files):
    """An npm package tarball: every member under `package/`. files: (name, bytes, mode)."""
    with open(path, "wb") as raw:
        # gzip with mtime 0: the same bytes for the same content.
        import gzip

        with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, compresslevel=6) as gz:
            with tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
                for name, data, mode in sorted(files):
                    info = tarfile.TarInfo("package/" + name)
                    info.size = len(data)
                    info.mode = mode
                    info.mtime = EPOCH
                    info.uname = info.gname = ""
                    tar.addfile(info, io.BytesIO(data))


LAUNCHER = r"""#!/usr/bin/env node
// mcpward launcher: runs the binary of the platform package npm installed beside this one
// (an optional dependency per platform, like esbuild and biome). No download, ever.
"use strict";
const { spawnSync } = require("child_process");
const path = require("path");

const SUPPORTED = __SUPPORTED__;
const key = `${process.platform}-${process.arch}`;
const exe = process.platform === "win32" ? "mcpward.exe" : "mcpward";

function fail(message) {
  process.stderr.write(`mcpward: ${message}\n`);
  process.exit(2);
}

if (!SUPPORTED.includes(key)) {
  fail(
    `no prebuilt binary for ${key} (there are: ${SUPPORTED.join(", ")}). ` +
      "Install from source with `cargo install mcpward`, or download a release archive."
  );
}
let binary;
try {
  binary = require.resolve(`__SCOPE__/${key}/bin/${exe}`);
} catch (_) {
  fail(
    `the platform package __SCOPE__/${key} is not installed. It is an optional dependency ` +
      "of __NAME__: reinstall without --no-optional / --omit=optional, or add " +
      `__SCOPE__/${key} to your dependencies.`
  );
}
const r = spawnSync(binary, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
if (r.error) {
  fail(`cannot start ${path.basename(binary)}: ${r.error.message}`);
}
if (r.signal) {
  process.kill(process.pid, r.signal);
}
process.exit(r.status === null ? 2 : r.status);
"""


def build_npm(out, version, binaries, meta):
    npm = os.path.join(out, "npm")
    os.makedirs(npm, exist_ok=True)
    readme = (
        "# mcpward (prebuilt binary)\n\nContract tests for MCP servers in CI. "
        "`npx %s run` — see %s\n" % (NPM_NAME, meta["repository"])
    ).encode()
    for plat, binary in binaries.items():
        os_, cpu, exe = PLATFORMS[plat]
        pkg = {
            "name": "%s/%s" % (NPM_SCOPE, plat),
            "version": version,
            "description": "The mcpward binary for %s" % plat,
            "license": meta["license"],
            "repository": meta["repository"],
            "os": [os_],
            "cpu": [cpu],
            "preferUnplugged": True,
        }
        data = open(binary, "rb").read()
        npm_tgz(
            os.path.join(npm, "%s-%s-%s.tgz" % (NPM_NAME, plat, version)),
            [
                ("package.json", (json.dumps(pkg, indent=2) + "\n").encode(), 0o644),
                ("bin/" + exe, data, 0o755),
                ("README.md", readme, 0o644),
            ],
        )
    main = {
        "name": NPM_NAME,
        "version": version,
        "description": meta["description"],
        "license": meta["license"],
        "repository": meta["repository"],
        "bin": {"mcpward": "bin/mcpward.js"},
        "files": ["bin/mcpward.js"],
        "engines": {"node": ">=18"},
        # Every platform, whichever were built here: npm installs only the one whose
        # os/cpu match.
        "optionalDependencies": {"%s/%s" % (NPM_SCOPE, p): version for p in sorted(PLATFORMS)},
    }
    launcher = (
        LAUNCHER.replace("__SUPPORTED__", json.dumps(sorted(PLATFORMS)))
        .replace("__SCOPE__", NPM_SCOPE)
        .replace("__NAME__", NPM_NAME)
    )
    npm_tgz(
        os.path.join(npm, "%s-%s.tgz" % (NPM_NAME, version)),
        [
            ("package.json", (json.dumps(main, indent=2) + "\n").encode(), 0o644),
            ("bin/mcpward.js", launcher.encode(), 0o755),
            ("README.md", readme, 0o644),
        ],
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="output directory (replaced)")
    ap.add_argument("binaries", nargs="+", metavar="PLATFORM=BINARY")
    args = ap.parse_args()
    binaries = {}
    for item in args.binaries:
        plat, sep, path = item.partition("=")
        if not sep or plat not in PLATFORMS:
            sys.exit("packaging: %r: expected PLATFORM=BINARY with PLATFORM one of %s" % (item, ", ".join(sorted(PLATFORMS))))
        if not os.path.isfile(path):
            sys.exit("packaging: %s: no such binary" % path)
        binaries[plat] = path
    meta = {
        "description": cargo_field("description"),
        "license": cargo_field("license"),
        "repository": "https://github.com/mcpward/mcpward-rs",
    }
    version = cargo_field("version")
    if os.path.isdir(args.out):
        shutil.rmtree(args.out)
    os.makedirs(args.out)
    build_npm(args.out, version, binaries, meta)
    for d, _, names in sorted(os.walk(args.out)):
        for n in sorted(names):
            print(os.path.relpath(os.path.join(d, n), args.out))


if __name__ == "__main__":
    main()
