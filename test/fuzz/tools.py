"""The fuzzer's tools: running them, and the failure a check raises (fuzz.py)."""
import os
import subprocess
import sys

TOOL_TIMEOUT = 300
RUN_TIMEOUT = 20


class Failure(Exception):
    """A check failed: check is a short name, msg the details."""

    def __init__(self, check, msg):
        super().__init__(msg)
        self.check, self.msg = check, msg


# --------------------------------------------------------------------------------------
# Tools


class Env:
    """Paths of the build and LLVM tools, shared by the workers."""

    def __init__(self, build, bindir):
        self.build = build
        self.bindir = bindir
        self.plugin = os.path.join(build, "lib", "ShardPlugin.so")
        self.shard = os.path.join(build, "bin", "shard")
        with open(self.plugin, "rb") as f:  # split limits this plugin knows
            data = f.read()
        self.tiny = b"tiny-cost" in data
        self.sizes = b"decl-size" in data  # the inline-size limits

    def tool(self, name):
        return os.path.join(self.bindir, name)


def run(cmd, check_name, cwd=None, timeout=TOOL_TIMEOUT):
    """Runs cmd (a list); raises Failure(check_name) on a bad status, returns stdout."""
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Failure(check_name, "timed out after %d s: %s" % (timeout, " ".join(cmd)))
    if p.returncode != 0:
        err = p.stderr.decode(errors="replace").strip().splitlines()
        raise Failure(check_name, "%s exited with %d: %s" % (
            os.path.basename(cmd[0]), p.returncode, " | ".join(err[-6:])))
    return p.stdout.decode(errors="replace")


def bindir_of(build):
    """The LLVM tools directory a build was configured with (its CMake cache)."""
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith("SHARD_LLVM_BINDIR:"):
                return line.split("=", 1)[1].strip()
    sys.exit("fuzz: error: no SHARD_LLVM_BINDIR in %s/CMakeCache.txt" % build)
