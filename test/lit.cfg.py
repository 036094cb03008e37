# lit configuration for Shard. Run through a build directory: lit BUILD/test
import os
import lit.formats

config.name = "Shard"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".test", ".c"]
config.test_source_root = os.path.join(config.shard_src_root, "test")
config.test_exec_root = os.path.join(config.shard_obj_root, "test")
config.excludes = ["Inputs", "lit.site.cfg.py.in"]

bindir = os.path.join(config.shard_obj_root, "bin")
plugin = os.path.join(config.shard_obj_root, "lib", "ShardPlugin.so")

# The LLVM tools of this build come first, then Shard's own binaries.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, bindir, config.environment.get("PATH", os.environ.get("PATH", ""))])
for var in ("HOME", "TMPDIR", "XDG_CACHE_HOME"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

# Tests compile from scratch unless they ask for a cache (--cache-dir beats this).
config.environment["SHARD_NO_CACHE"] = "1"

config.substitutions.append(("%{env_path}", config.environment["PATH"]))
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%opt-shard", "opt -load-pass-plugin=" + plugin))
config.substitutions.append(("%shard", os.path.join(bindir, "shard")))
config.substitutions.append(("%bindir", bindir))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%llvm-major", str(config.llvm_major)))

config.available_features.add("llvm-%d" % config.llvm_major)
import platform
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86_64")
# target-aarch64, target-webassembly, ...: the code generators this LLVM was built with.
import subprocess
try:
    built = subprocess.run([os.path.join(config.llvm_tools_dir, "llvm-config"), "--targets-built"],
                           capture_output=True, text=True).stdout.split()
except OSError:
    built = []
for t in built:
    config.available_features.add("target-" + t.lower())
import shutil
if shutil.which("ninja", path=config.environment["PATH"]):
    config.available_features.add("ninja")
if shutil.which("ccache", path=config.environment["PATH"]):
    config.available_features.add("ccache")
if shutil.which("valgrind", path=config.environment["PATH"]):
    config.available_features.add("valgrind")
if config.sqlite_c and os.path.exists(config.sqlite_c):
    config.available_features.add("sqlite")
    config.substitutions.append(("%sqlite3_c", config.sqlite_c))
# LevelDB and Snappy sources (bench/fetch-leveldb.sh) for test/e2e/leveldb.test.
if getattr(config, "leveldb_dir", "") and os.path.isdir(config.leveldb_dir):
    config.available_features.add("leveldb")
    config.substitutions.append(("%leveldb_dir", config.leveldb_dir))
# Duktape's amalgamation (bench/fetch-duktape.sh) for test/e2e/duktape.test.
if getattr(config, "duktape_dir", "") and os.path.isdir(config.duktape_dir):
    config.available_features.add("duktape")
    config.substitutions.append(("%duktape_dir", config.duktape_dir))
# test/cluster: a private Slurm cluster needs root (slurmd starts the steps), Slurm and munge.
slurm_missing = [t for t in ("munged", "mungekey", "slurmctld", "slurmd", "srun", "squeue", "scancel")
                 if not shutil.which(t, path=config.environment["PATH"] + ":/usr/sbin")]
if os.geteuid() != 0:
    lit_config.note("the Slurm tests (test/cluster) are skipped: they must run as root")
elif slurm_missing:
    lit_config.note("the Slurm tests (test/cluster) are skipped: no " + ", ".join(slurm_missing) +
                    " (apt-get install slurm-wlm munge; ./build.sh --deps-only does)")
else:
    config.available_features.add("slurm")
