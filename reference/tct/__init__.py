"""The target-charging technique (CL23, seed 004): targets, NotPrior, conditional release,
wrappers, selection and the TCT accountant.  Importing the package registers every result."""

from . import (  # noqa: F401
    accountant,
    charging,
    notprior,
    reconstructions,
    release,
    selection,
    targets,
    wrappers,
)
