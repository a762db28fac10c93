"""Classes whose base class lives in an optional extra (torch, stable-baselines3), imported on first use.

``import zerosum.training.ppo.callbacks`` (or any module of zerosum) must not import torch: the site's
generator and a plain install read these modules without the ``train`` extra. A class such as
``EvalCallback(BaseCallback)`` is therefore written against a stand-in base::

    if TYPE_CHECKING:
        from stable_baselines3.common.callbacks import BaseCallback
    else:
        BaseCallback = lazy_base("stable_baselines3.common.callbacks", "BaseCallback")

    class EvalCallback(BaseCallback): ...

The type checker sees the real base. At run time the class is a plain class until it is first
instantiated or asked for an attribute it does not define (``MaskableDQN.load``): then the real base
is imported and a subclass of both, with the same name, replaces the class in its module, so
``isinstance``, ``super()`` and pickling by reference all behave as if the base had been there all along.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, cast

_META: dict[type, type] = {}


class _LazyMeta(type):
    """The metaclass of a lazily based class: an attribute the class lacks comes from its real form."""

    def __getattr__(cls, name: str) -> Any:
        if name.startswith("__") or "_lazy_real" in cls.__dict__:
            raise AttributeError(f"type object {cls.__name__!r} has no attribute {name!r}")
        return getattr(realize(cls), name)


def realize(cls: type) -> type:
    """``cls`` with its real base class (imported now, once); ``cls`` itself if it already has it."""
    if "_lazy_real" in cls.__dict__:
        return cls
    done = cls.__dict__.get("_lazy_done")
    if done is not None:
        return done  # type: ignore[no-any-return]
    module, name = cls._lazy_target  # type: ignore[attr-defined]
    base = getattr(importlib.import_module(module), name)
    meta = _META.get(type(base))
    if meta is None:
        meta = _META[type(base)] = type(f"_Lazy{type(base).__name__}", (_LazyMeta, type(base)), {})
    real: type = meta(cls.__name__, (cls, base), {"__module__": cls.__module__, "__qualname__": cls.__qualname__,
                                                  "__doc__": cls.__doc__, "_lazy_real": True})
    type.__setattr__(cls, "_lazy_done", real)
    home = sys.modules.get(cls.__module__)
    if home is not None and getattr(home, cls.__qualname__, None) is cls:
        setattr(home, cls.__qualname__, real)  # pickles (SB3 saves its policy class) find the real class
    return real


def lazy_base(module: str, name: str) -> type:
    """A stand-in for ``module.name`` as a base class; the real one is imported when a subclass is first used."""

    class Lazy(metaclass=_LazyMeta):
        _lazy_target = (module, name)

        def __new__(cls, *args: Any, **kwargs: Any) -> Any:
            real = realize(cls)
            if real is cls:
                return super().__new__(cls)
            return cast(Any, real).__new__(real)  # an instance of a subclass of cls: Python calls its __init__ next

    Lazy.__name__ = Lazy.__qualname__ = f"Lazy{name}"
    return Lazy
