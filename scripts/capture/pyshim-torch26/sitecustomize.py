"""Runtime fix for Debian trixie's python3-torch 2.6.0+dfsg-7 (built WITHOUT libuv).

Problem (reproduced in the corpus run torch2.6-s0_debian_nolibuv_static_crash): in PyTorch 2.6 the
C++ TCPStore binding defaults to use_libuv=True. The Debian build has no libuv
TCPStore backend, and these code paths construct TCPStore without passing
use_libuv (so the USE_LIBUV environment variable, honoured elsewhere, is ignored):
    torch/distributed/elastic/rendezvous/static_tcp_rendezvous.py   (static backend, agent)
    torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py (c10d backend, agent)
    torch/distributed/elastic/rendezvous/dynamic_rendezvous.py      (_create_tcp_store_server, agent)
    torch/distributed/rendezvous.py  (_create_c10d_store, agent-store client branch:
                                      every worker's init_process_group() under torchrun)
torchrun dies right at "Rendezvous'ing worker group" (and, with only the agent side
fixed, every worker dies in init_process_group) with
    RuntimeError: use_libuv was requested but PyTorch was build without libuv support
(the same error Windows wheels show).

This module is put on PYTHONPATH by capture.py --torch 2.6 (together with USE_LIBUV=0 in the
environment). It installs a lazy import hook that, only when one of those four
modules is imported, compiles the module's own source with one keyword argument
appended ON THE SAME LINE as an existing argument of that TCPStore(...) call:
    use_libuv=__import__("os").environ.get("USE_LIBUV", "1") == "1"
(what the other branch of _create_c10d_store and elastic/utils/distributed.py already
do). The code is compiled under the original file name with unchanged line numbers,
so tracebacks look exactly like those of an unpatched install (they show the
original source lines from disk). The store therefore runs on the legacy (non-libuv)
TCPStore server. Nothing else in torch is changed; every log line still comes from
the installed torch. Finally it chains to Debian's own sitecustomize (apport hook),
which this file shadows.
"""
import importlib.abc
import importlib.machinery
import sys

_ARG = ' use_libuv=__import__("os").environ.get("USE_LIBUV", "1") == "1",'

# module -> (line number, exact original line) ; the keyword is appended to that line
_TARGETS = {
    "torch.distributed.elastic.rendezvous.static_tcp_rendezvous":
        (73, "                multi_tenant=True,"),
    "torch.distributed.elastic.rendezvous.c10d_rendezvous_backend":
        (163, "                multi_tenant=True,"),
    "torch.distributed.elastic.rendezvous.dynamic_rendezvous":
        (1122, "            multi_tenant=True,"),
    "torch.distributed.rendezvous":
        (189, "            is_master=False,"),
}


class _Loader(importlib.abc.Loader):
    def __init__(self, inner, fullname):
        self._inner = inner
        self._name = fullname

    def create_module(self, spec):
        return self._inner.create_module(spec)

    def exec_module(self, module):
        lineno, expected = _TARGETS[self._name]
        src = self._inner.get_source(self._name)
        lines = src.split("\n")
        if lines[lineno - 1] != expected:
            # unknown torch build: leave the module untouched
            return self._inner.exec_module(module)
        lines[lineno - 1] = expected + _ARG
        code = compile("\n".join(lines), self._inner.get_filename(self._name), "exec",
                       dont_inherit=True)
        exec(code, module.__dict__)


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        if fullname not in _TARGETS:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None and isinstance(spec.loader, importlib.machinery.SourceFileLoader):
            spec.loader = _Loader(spec.loader, fullname)
        return spec


sys.meta_path.insert(0, _Finder())

# chain to Debian's /etc/python3.13/sitecustomize.py (apport hook), which we shadow
try:
    import apport_python_hook
except ImportError:
    pass
else:
    apport_python_hook.install()
