"""Runtime fix for Debian's python3-torch 1.13 on Python 3.11 (bookworm).

torch 1.13's ``Std.from_str`` looks a value up with ``for s in Std: if s == v``.
On Python 3.11, iterating an ``IntFlag`` yields only its single-bit members, so
``Std.NONE`` (0) and ``Std.ALL`` (3) are never found and ``from_str('0')``
returns ``None``; torchrun then dies with
``AttributeError: 'NoneType' object has no attribute 'get'``.

This file is put on PYTHONPATH for the capture runs only. It installs an import
hook that, right after ``torch.distributed.elastic.multiprocessing.api`` has
been executed, replaces ``Std.from_str`` with a version that returns
``Std(int(v))``. It prints nothing and changes no log line. torch is not
imported here; processes that never import that module are untouched.
Debian's own ``sitecustomize`` (the one this file shadows) is run afterwards.
"""

import importlib.abc
import importlib.machinery
import os
import re
import sys

_TARGET = "torch.distributed.elastic.multiprocessing.api"
_HERE = os.path.dirname(os.path.abspath(__file__))


def _patch(mod):
    std = mod.Std
    value_re = getattr(mod, "_VALUE_REGEX", r"^[0-3]$")
    mapping_re = getattr(mod, "_MAPPING_REGEX", r"^(\d:[0-3],)*(\d:[0-3])$")

    def from_str(cls, vm):
        if re.match(value_re, vm):
            return cls(int(vm))
        if re.match(mapping_re, vm):
            out = {}
            for m in vm.split(","):
                i, v = m.split(":")
                out[int(i)] = cls(int(v))
            return out
        raise ValueError(f"{vm} does not match: <{value_re}> or <{mapping_re}>")

    std.from_str = classmethod(from_str)


class _PatchingFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        if fullname != _TARGET:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        original_exec = loader.exec_module

        def exec_module(module):
            original_exec(module)
            _patch(module)

        loader.exec_module = exec_module
        return spec


sys.meta_path.insert(0, _PatchingFinder())


def _chain_system_sitecustomize():
    others = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", others)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception:  # a broken system sitecustomize must not break the run
        pass


import importlib.util  # noqa: E402

_chain_system_sitecustomize()
