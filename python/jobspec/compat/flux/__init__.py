"""A drop-in for flux-core's Python shape and constraint parsers.

    from jobspec.compat.flux import ShapeParser, ShapeSyntaxError
    from jobspec.compat.flux import ConstraintParser, ConstraintSyntaxError
    from jobspec.compat.flux import MiniConstraintParser   # flux run --requires

Same constructors, methods, class-level configuration and results as flux-core 0.88's
flux.shape.parser and flux.constraint.parser, except where an RFC forbids what flux
accepts: then the flux exception type is raised with jobspec's diagnostics (see
docs/COMPAT.md). The command lines are `python3 -m jobspec.compat.flux.shape` and
`python3 -m jobspec.compat.flux.constraint`.
"""
from ._constraint import ConstraintParser, ConstraintSyntaxError, MiniConstraintParser
from ._shape import ShapeParser, ShapeSyntaxError

__all__ = [
    "ConstraintParser",
    "ConstraintSyntaxError",
    "MiniConstraintParser",
    "ShapeParser",
    "ShapeSyntaxError",
]
