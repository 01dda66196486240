"""The one home of argument checks, the random-state resolver and deprecations.

Bottom layer: imports nothing of the package. Every other unit takes its checks from
here instead of writing its own (``tests/_import_graph.py`` and
``tests/test_layering.py`` hold the layering rule).

Conventions (one name per concept, see ``docs/user_guide/renames.rst``):

- ``greater_is_better`` for direction; required where direction matters and no
  metric says it (a missing value warns for one release and keeps the old default).
- ``delta`` for the smallest difference that matters (``rope`` only as a result
  field); ``confidence_level`` for intervals, ``alpha`` for tests;
  ``n_resamples`` for resamples, ``n_draws`` for posterior draws; ``adjust`` for
  multiplicity; options keyword-only.
"""

import functools
import inspect
import numbers
import os
import warnings

import numpy as np

__all__ = [
    "UNSET",
    "check_alpha",
    "check_axis",
    "check_bool",
    "check_choice",
    "check_confidence_level",
    "check_fraction",
    "check_positive_int",
    "check_random_state",
    "check_real",
    "deprecated_alias",
    "named_items",
    "real_array",
    "real_number",
    "deprecated_attribute",
    "keyword_only",
    "renamed_parameters",
    "resolve_direction",
]

# The release in which a deprecated name stops working.
REMOVED_IN = "0.3"


class _Unset:
    """Marker of an argument the caller left out (its repr shows in signatures)."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self):
        return "<required>"

    def __bool__(self):
        return False

    def __reduce__(self):
        return (_Unset, ())


UNSET = _Unset()


# ---------------------------------------------------------------- scalar checks
def real_number(value, name):
    """``value`` as a float, or a ``TypeError`` naming the argument.

    Strings, ``None``, complex numbers, booleans and sequences are refused before
    ``float()`` would say "could not convert string to float" without a name.
    Infinite and NaN values pass (see :func:`check_real`).

    Examples
    --------
    >>> from sklearn_bench._validation import real_number
    >>> real_number(0.95, "confidence_level")
    0.95
    >>> real_number("0.95", "confidence_level")
    Traceback (most recent call last):
    ...
    TypeError: `confidence_level` must be a real number; got '0.95' (str).
    """
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"`{name}` must be a real number; got {value!r} ({type(value).__name__})."
        )
    return float(value)


def real_array(values, name):
    """``values`` as a float array, or a ``ValueError`` naming the argument.

    Strings, ragged nesting and complex numbers are refused (numpy would say
    "could not convert string to float", "inhomogeneous shape", or drop the
    imaginary part).

    Examples
    --------
    >>> from sklearn_bench._validation import real_array
    >>> real_array([1, 2], "x")
    array([1., 2.])
    >>> real_array([[1, 2], [3]], "x")
    Traceback (most recent call last):
    ...
    ValueError: `x` must be an array of real numbers: setting an array element ...
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", np.exceptions.ComplexWarning)
            if np.iscomplexobj(values):
                raise TypeError("complex numbers")
            if isinstance(values, str | bytes) or np.asarray(values).dtype.kind in "US":
                raise TypeError(f"text {values!r}")
            return np.asarray(values, dtype=float)
    except (TypeError, ValueError, np.exceptions.ComplexWarning) as exc:
        message = str(exc).splitlines()[0]
        raise ValueError(
            f"`{name}` must be an array of real numbers: {message}"
        ) from None


def check_real(value, name):
    """``value`` as a finite float; ``TypeError`` for a non-number (bools too)."""
    value = real_number(value, name)
    if not np.isfinite(value):
        raise ValueError(f"`{name}` must be finite; got {value!r}.")
    return value


def check_alpha(alpha, name="alpha"):
    """The significance level of a test, a number in (0, 1)."""
    if isinstance(alpha, bool | np.bool_) or not isinstance(alpha, numbers.Real):
        raise TypeError(f"`{name}` must be a number in (0, 1); got {alpha!r}.")
    if not 0 < alpha < 1:
        raise ValueError(f"`{name}` must be a number in (0, 1); got {alpha!r}.")
    return float(alpha)


def check_fraction(value, name):
    """``value`` as a float strictly between 0 and 1 (a level, a power, ...)."""
    value = real_number(value, name)
    if not 0 < value < 1:
        raise ValueError(f"`{name}` must lie strictly between 0 and 1; got {value!r}.")
    return value


def check_confidence_level(confidence_level, name="confidence_level"):
    """The level of an interval, a number strictly between 0 and 1."""
    return check_fraction(confidence_level, name)


def check_choice(value, choices, name):
    """``value`` lower-cased, if it is one of ``choices`` (strings)."""
    if not isinstance(value, str) or value.lower() not in choices:
        raise ValueError(f"`{name}` must be one of {list(choices)}; got {value!r}.")
    return value.lower()


def check_member(value, choices, name):
    """``value`` as given, if it is one of ``choices`` (no case folding)."""
    if value not in choices:
        raise ValueError(f"`{name}` must be one of {list(choices)}; got {value!r}.")
    return value


def named_items(pairs, name, *, noun):
    """The ``(key, item)`` pairs of a named collection, checked one by one.

    A generator over ``pairs`` (the items of a ``{name: item}`` dict, or a
    list of ``(name, item)`` pairs): it raises a ``ValueError`` when ``pairs``
    is empty, then for each pair in turn, before yielding it, when its key is
    not a string or repeats an earlier key. The caller checks each item in its
    loop body, so the first problem in the order of ``pairs`` is the one
    reported.

    Parameters
    ----------
    pairs : list of (str, object)
    name : str
        The argument, quoted in the messages (``"learners"``).
    noun : str
        What one item is, in lower case (``"learner"``, ``"data set"``).

    Yields
    ------
    key : str
    item : object

    Examples
    --------
    >>> from sklearn_bench._validation import named_items
    >>> dict(named_items([("a", 1), ("b", 2)], "learners", noun="learner"))
    {'a': 1, 'b': 2}
    >>> dict(named_items([("a", 1), ("a", 2)], "learners", noun="learner"))
    Traceback (most recent call last):
    ...
    ValueError: Duplicate learner name 'a' in `learners`.
    """
    if not pairs:
        raise ValueError(f"`{name}` is empty.")
    seen = set()
    for key, item in pairs:
        if not isinstance(key, str):
            raise ValueError(f"{noun.capitalize()} names must be strings; got {key!r}.")
        if key in seen:
            raise ValueError(f"Duplicate {noun} name {key!r} in `{name}`.")
        seen.add(key)
        yield key, item


def check_positive_int(value, name, minimum=1):
    """An integer (not a bool) of at least ``minimum``."""
    if (
        isinstance(value, bool | np.bool_)
        or not isinstance(value, numbers.Integral)
        or value < minimum
    ):
        what = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
        raise ValueError(f"`{name}` must be {what}; got {value!r}.")
    return int(value)


def check_bool(value, name):
    """A bool (numpy's too); ``TypeError`` otherwise."""
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"`{name}` must be a bool; got {value!r}.")
    return bool(value)


def check_axis(axis, ndim, name="axis"):
    """``axis`` as a non-negative int for an array of ``ndim`` dimensions."""
    if isinstance(axis, bool | np.bool_) or not isinstance(axis, numbers.Integral):
        raise TypeError(f"`{name}` must be an integer; got {axis!r}.")
    if not -ndim <= axis < ndim:
        raise ValueError(
            f"`{name}` = {axis} is out of bounds for arrays of {ndim} dimension(s)."
        )
    return int(axis) % ndim


def check_random_state(random_state, *, keep_random_state=False):
    """A :class:`numpy.random.Generator` from None, an int, a Generator or a
    :class:`numpy.random.RandomState`.

    The one random-state resolver of the package: statistics draw with
    Generators; splitters and estimators keep scikit-learn's ``RandomState``.
    A ``RandomState`` gives a Generator on its own bit generator, so drawing
    from one advances the other (the same seed gives the same draws). With
    ``keep_random_state=True`` a ``RandomState`` is returned as it is, for code
    whose draws are written for both APIs and whose results were made with the
    ``RandomState`` stream.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench._validation import check_random_state
    >>> a = check_random_state(0).random()
    >>> b = check_random_state(np.random.default_rng(0)).random()
    >>> a == b
    True
    """
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        if keep_random_state:
            return random_state
        return np.random.Generator(random_state._bit_generator)
    if random_state is None or (
        isinstance(random_state, numbers.Integral)
        and not isinstance(random_state, bool | np.bool_)
    ):
        return np.random.default_rng(random_state)
    raise ValueError(
        "`random_state` must be None, an int, a numpy Generator or RandomState; "
        f"got {random_state!r}."
    )


# ---------------------------------------------------------------- deprecations
def find_stack_level():
    """The ``stacklevel`` that points a warning at the first frame outside the package.

    Counted from the function that calls :func:`warnings.warn` with it (pandas'
    rule), so a deprecation warning names the user's line however many of the
    package's wrappers (``renamed_parameters``, ``keyword_only``, a batched path)
    stand between.

    Examples
    --------
    >>> from sklearn_bench._validation import find_stack_level
    >>> find_stack_level()  # called from outside the package: the caller itself
    1
    """
    package = os.path.dirname(os.path.abspath(__file__)) + os.sep
    frame = inspect.currentframe()
    level = 0
    while frame is not None and frame.f_code.co_filename.startswith(package):
        frame = frame.f_back
        level += 1
    return level


def _warn(message):
    warnings.warn(message, FutureWarning, stacklevel=find_stack_level())


def renamed_parameters(**renames):
    """Decorator: keyword ``old`` is accepted for one release as ``new``.

    ``@renamed_parameters(rope="delta")`` makes ``f(rope=0.01)`` warn
    (``FutureWarning``) and call ``f(delta=0.01)``; passing both is a
    ``TypeError``. The signature shown by :func:`inspect.signature` is the new one;
    the renames are kept in ``__renamed_parameters__`` for the convention test.

    Examples
    --------
    >>> @renamed_parameters(level="confidence_level")
    ... def interval(*, confidence_level=0.95):
    ...     return confidence_level
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     interval(level=0.9), w[0].category.__name__
    (0.9, 'FutureWarning')
    """

    def decorate(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            name = wrapper.__qualname__  # as the class that shows it names it
            for old, new in renames.items():
                if old in kwargs:
                    if new in kwargs:
                        raise TypeError(
                            f"{name}() got both `{old}` and its new name `{new}`; "
                            f"pass `{new}` only."
                        )
                    _warn(
                        f"`{old}` was renamed `{new}` in {name}(); `{old}` will be "
                        f"removed in {REMOVED_IN}. Pass `{new}=` instead.",
                    )
                    kwargs[new] = kwargs.pop(old)
            return func(*args, **kwargs)

        previous = getattr(func, "__renamed_parameters__", {})
        wrapper.__renamed_parameters__ = {**previous, **renames}
        return wrapper

    return decorate


def keyword_only(*names):
    """Decorator: options ``names``, now keyword-only, still accepted positionally
    for one release (scikit-learn's rule).

    ``names`` are the options in the order the old signature took them after the
    positional arguments that stay positional. Used bare (``@keyword_only``), the
    names are the function's keyword-only parameters in the order they are
    declared. A call that passes them by position warns (``FutureWarning``) and is
    forwarded by keyword; passing one both ways is a ``TypeError``.
    :func:`inspect.signature` shows the new (keyword-only) signature.

    Examples
    --------
    >>> @keyword_only("threshold")
    ... def decide(p, *, threshold=0.95):
    ...     return p >= threshold
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     decide(0.9, 0.8), w[0].category.__name__
    (True, 'FutureWarning')
    >>> decide(0.9, threshold=0.8)
    True
    >>> @keyword_only
    ... def aggregate(metric=None, *, stat="mean"):
    ...     return metric, stat
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     aggregate("error", "std"), w[0].category.__name__
    (('error', 'std'), 'FutureWarning')
    """
    if len(names) == 1 and callable(names[0]):
        (func,) = names
        params = inspect.signature(func).parameters.values()
        return keyword_only(*(p.name for p in params if p.kind is p.KEYWORD_ONLY))(func)

    def decorate(func):
        params = inspect.signature(func).parameters.values()
        n_positional = sum(
            p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params
        )
        if any(p.kind is p.VAR_POSITIONAL for p in params):
            raise TypeError("keyword_only() cannot decorate a function with *args.")
        name = func.__qualname__

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            if len(args) > n_positional:
                extra = args[n_positional:]
                if len(extra) > len(names):
                    raise TypeError(
                        f"{name}() takes {n_positional + len(names)} positional "
                        f"arguments but {len(args)} were given."
                    )
                moved = names[: len(extra)]
                for key, value in zip(moved, extra, strict=True):
                    if key in kwargs:
                        raise TypeError(f"{name}() got multiple values for `{key}`.")
                    kwargs[key] = value
                _warn(
                    f"Passing {', '.join(f'`{k}`' for k in moved)} to {name}() by "
                    f"position is deprecated and will be an error in {REMOVED_IN}; "
                    "pass " + ", ".join(f"`{k}=`" for k in moved) + " by keyword.",
                )
                args = args[:n_positional]
            return func(*args, **kwargs)

        previous = getattr(func, "__keyword_only__", ())
        wrapper.__keyword_only__ = (*names, *previous)
        return wrapper

    return decorate


def deprecated_alias(func, old_name, *, module=None):
    """A function ``old_name`` that warns and calls ``func`` (a renamed function).

    Examples
    --------
    >>> def friedman_test(x):
    ...     return x
    >>> friedman = deprecated_alias(friedman_test, "friedman")
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     friedman(3)
    3
    """

    @functools.wraps(func)
    def alias(*args, **kwargs):
        _warn(
            f"{old_name}() was renamed {func.__name__}() and will be removed in "
            f"{REMOVED_IN}; call {func.__name__}() instead.",
        )
        return func(*args, **kwargs)

    alias.__name__ = alias.__qualname__ = old_name
    alias.__deprecated_alias_of__ = func.__name__
    if module is not None:
        alias.__module__ = module
    alias.__doc__ = (
        f"Deprecated alias of :func:`{func.__name__}` (removed in {REMOVED_IN})."
    )
    return alias


def deprecated_attribute(old_name, new_name):
    """A read-only property ``old_name`` that warns and returns ``new_name``.

    For a result attribute renamed to the one name of its concept; the old one
    keeps working for one release.

    Examples
    --------
    >>> class Result:
    ...     n_resamples = 200
    ...     n_bootstrap = deprecated_attribute("n_bootstrap", "n_resamples")
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     Result().n_bootstrap, w[0].category.__name__
    (200, 'FutureWarning')
    """

    def getter(self):
        _warn(
            f"`{type(self).__name__}.{old_name}` was renamed `{new_name}`; "
            f"`{old_name}` will be removed in {REMOVED_IN}.",
        )
        return getattr(self, new_name)

    getter.__name__ = old_name
    getter.__doc__ = f"Deprecated: use ``{new_name}`` (removed in {REMOVED_IN})."
    return property(getter)


def resolve_direction(greater_is_better, *, old_default=UNSET, where):
    """``greater_is_better`` as a bool; the one rule for a direction left out.

    Where direction matters and no metric says it, the caller must say it. For one
    release a function that used to have a silent default keeps it (``old_default``)
    and warns (at the user's line); without an old default, leaving it out is a
    ``ValueError``.
    """
    if greater_is_better is UNSET or greater_is_better is None:
        if old_default is UNSET:
            raise ValueError(
                f"{where} needs `greater_is_better`: True when higher scores are "
                "better (accuracy, AUC), False when lower are (error rate, loss)."
            )
        _warn(
            f"{where} was called without `greater_is_better`; it uses the old "
            f"default {old_default} for now, and from {REMOVED_IN} on it must be "
            "given: True when higher scores are better (accuracy, AUC), False when "
            "lower are (error rate, loss).",
        )
        return bool(old_default)
    return check_bool(greater_is_better, "greater_is_better")


def keyword_only_options(func):
    """The names of ``func``'s options that are not keyword-only (for the tests)."""
    params = inspect.signature(func).parameters.values()
    return [
        p.name
        for p in params
        if p.default is not inspect.Parameter.empty
        and p.kind is not inspect.Parameter.KEYWORD_ONLY
    ]
