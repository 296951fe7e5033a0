"""privref reference implementations: probabilistic programs with exact distributions and samplers."""

from importlib.metadata import PackageNotFoundError, version

from .data import BOTTOM, Dataset, as_dataset, labeled, unlabeled
from .errors import (
    EmptyDataset,
    InexactNumber,
    InvalidArgument,
    NotNeighboring,
    PrivrefError,
    TooLargeToEnumerate,
    UnknownLabel,
    UnsupportedProgram,
)
from .mechanism import Mechanism
from .neighbors import AddRemove, LabelSubstitution, PublicPrivate, Substitution, Universe
from .privacy import PrivacyClaim, compose_claims, group_privacy, parse_epsilon
from .program import (
    Distribution,
    Program,
    bernoulli,
    call,
    categorical,
    distribution,
    sample,
    uniform,
)
from .reals import Interval, Order, Real, compare, exp, log, rational, sqrt

try:
    __version__ = version("privref")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.1.0+source"

__all__ = [
    "BOTTOM",
    "AddRemove",
    "Dataset",
    "Distribution",
    "EmptyDataset",
    "InexactNumber",
    "Interval",
    "InvalidArgument",
    "LabelSubstitution",
    "Mechanism",
    "NotNeighboring",
    "Order",
    "PrivacyClaim",
    "PrivrefError",
    "Program",
    "PublicPrivate",
    "Real",
    "Substitution",
    "TooLargeToEnumerate",
    "Universe",
    "UnknownLabel",
    "UnsupportedProgram",
    "__version__",
    "as_dataset",
    "bernoulli",
    "call",
    "categorical",
    "compare",
    "compose_claims",
    "distribution",
    "exp",
    "group_privacy",
    "labeled",
    "log",
    "parse_epsilon",
    "rational",
    "sample",
    "sqrt",
    "uniform",
    "unlabeled",
]
