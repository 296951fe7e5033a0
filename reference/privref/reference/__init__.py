"""privref reference implementations: probabilistic programs with exact distributions and samplers."""

if __name__ != "privref.reference":  # one importable name per module (docs/layout.md)
    raise ImportError(f"import privref.reference, not {__name__}: this folder is privref.reference")

from importlib.metadata import PackageNotFoundError, version

from .citations import Citation, Uncited, cite
from .concepts import (
    Concept,
    ConceptClass,
    Domain,
    explicit,
    intervals,
    parities,
    point_functions,
    rectangles,
    thresholds,
    thresholds_on,
)
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
from .prediction import (
    PredictionClaim,
    Predictor,
    PrivatePrediction,
    UniformStability,
    paper_stability_bound,
    privacy_from_stability,
    stability_from_privacy,
)
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
from .vc import (
    canonical_representatives,
    littlestone_dimension,
    projection,
    sauer_shelah_bound,
    vc_dimension,
    xor_class,
)

try:
    __version__ = version("privref")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.1.0+source"

__all__ = [
    "BOTTOM",
    "AddRemove",
    "Citation",
    "Concept",
    "ConceptClass",
    "Dataset",
    "Distribution",
    "Domain",
    "EmptyDataset",
    "InexactNumber",
    "Interval",
    "InvalidArgument",
    "LabelSubstitution",
    "Mechanism",
    "NotNeighboring",
    "Order",
    "PredictionClaim",
    "Predictor",
    "PrivacyClaim",
    "PrivatePrediction",
    "PrivrefError",
    "Program",
    "PublicPrivate",
    "Real",
    "Substitution",
    "TooLargeToEnumerate",
    "Uncited",
    "UniformStability",
    "Universe",
    "UnknownLabel",
    "UnsupportedProgram",
    "__version__",
    "as_dataset",
    "bernoulli",
    "call",
    "canonical_representatives",
    "categorical",
    "cite",
    "compare",
    "compose_claims",
    "distribution",
    "exp",
    "explicit",
    "group_privacy",
    "intervals",
    "labeled",
    "littlestone_dimension",
    "log",
    "paper_stability_bound",
    "parities",
    "parse_epsilon",
    "point_functions",
    "privacy_from_stability",
    "projection",
    "rational",
    "rectangles",
    "sample",
    "sauer_shelah_bound",
    "sqrt",
    "stability_from_privacy",
    "thresholds",
    "thresholds_on",
    "uniform",
    "unlabeled",
    "vc_dimension",
    "xor_class",
]
