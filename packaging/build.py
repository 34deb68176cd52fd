#!/usr/bin/env python3
"""Build the npm and PyPI packages that carry a prebuilt mcpward binary (issue #18 §1).

    packaging/build.py --out DIR  PLATFORM=BINARY [PLATFORM=BINARY ...]

PLATFORM is one of linux-x64, linux-arm64, darwin-x64, darwin-arm64, win32-x64 (Node's
names); BINARY is the release binary for it. Writes to DIR:

- npm/mcpward-rs-<version>.tgz: the main package, a launcher (`bin/mcpward.js`) and one
  optional dependency per platform package (esbuild's and biome's pattern: no postinstall,
  no download at install or run time);
- npm/mcpward-rs-<platform>-<version>.tgz: `@mcpward-rs/<platform>`, the binary alone,
  restricted to its `os`/`cpu`;
- pypi/mcpward-<version>-py3-none-<tag>.whl: the binary as the wheel's script, the
  layout maturin's `bin` bindings give (`<name>-<version>.data/scripts/`), so `pip
  install` / `uvx` put `mcpward` on PATH.

The version is Cargo.toml's. Standard library only; nothing is published here (the release
workflow publishes the files).
"""

import argparse
import base64
import hashlib
import io
import json
import os
import re
import shutil
import stat
import sys
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NPM_NAME = "mcpward-rs"
NPM_SCOPE = "@mcpward-rs"
PYPI_NAME = "mcpward"

# Node platform → (npm os, npm cpu, wheel platform tag, binary file name)
PLATFORMS = {
    # The release builds for Linux are static musl binaries: any glibc or musl system.
    "linux-x64": ("linux", "x64", "manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_1_x86_64", "mcpward"),
    "linux-arm64": ("linux", "arm64", "manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64", "mcpward"),
    "darwin-x64": ("darwin", "x64", "macosx_10_12_x86_64", "mcpward"),
    "darwin-arm64": ("darwin", "arm64", "macosx_11_0_arm64", "mcpward"),
    "win32-x64": ("win32", "x64", "win_amd64", "mcpward.exe"),
}

# Fixed times keep the archives byte-identical for the same inputs.
EPOCH = 315532800  # 1980-01-01, the earliest a zip can hold


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
        os_, cpu, _, exe = PLATFORMS[plat]
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


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (name, digest, len(data))


def build_wheel(out, version, plat, binary, meta):
    _, _, tag, exe = PLATFORMS[plat]
    pypi = os.path.join(out, "pypi")
    os.makedirs(pypi, exist_ok=True)
    dist = "%s-%s" % (PYPI_NAME, version)
    metadata = (
        "Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: %s\nLicense: %s\n"
        "Project-URL: Source, %s\nRequires-Python: >=3.8\n"
        % (PYPI_NAME, version, meta["description"], meta["license"], meta["repository"])
    ).encode()
    wheel = (
        "Wheel-Version: 1.0\nGenerator: mcpward packaging/build.py\nRoot-Is-Purelib: false\n"
        + "".join("Tag: py3-none-%s\n" % t for t in tag.split("."))
    ).encode()
    files = [
        ("%s.data/scripts/%s" % (dist, exe), open(binary, "rb").read(), 0o755),
        ("%s.dist-info/METADATA" % dist, metadata, 0o644),
        ("%s.dist-info/WHEEL" % dist, wheel, 0o644),
    ]
    record_name = "%s.dist-info/RECORD" % dist
    record = "\n".join([record_line(n, d) for n, d, _ in files] + [record_name + ",,", ""]).encode()
    files.append((record_name, record, 0o644))
    path = os.path.join(pypi, "%s-py3-none-%s.whl" % (dist, tag))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data, mode in files:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = (stat.S_IFREG | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)


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
    for plat, binary in binaries.items():
        build_wheel(args.out, version, plat, binary, meta)
    for d, _, names in sorted(os.walk(args.out)):
        for n in sorted(names):
            print(os.path.relpath(os.path.join(d, n), args.out))


if __name__ == "__main__":
    main()
