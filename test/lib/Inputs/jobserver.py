# jobserver.py TOKENS CMD...: runs CMD under a make-style jobserver (a pipe holding TOKENS
# tokens, named by MAKEFLAGS=--jobserver-auth=R,W), as a recipe line of make -j(TOKENS+1)
# would; fails if a token did not come back.
import os, subprocess, sys

tokens, cmd = int(sys.argv[1]), sys.argv[2:]
r, w = os.pipe()
os.write(w, b"+" * tokens)
env = dict(os.environ, MAKEFLAGS=" -j%d --jobserver-auth=%d,%d" % (tokens + 1, r, w))
rc = subprocess.call(cmd, env=env, pass_fds=(r, w))
os.set_blocking(r, False)
try:
    back = len(os.read(r, 4096))
except BlockingIOError:
    back = 0
if back != tokens:
    print("jobserver.py: %d of %d tokens came back" % (back, tokens))
    sys.exit(1)
sys.exit(rc)
