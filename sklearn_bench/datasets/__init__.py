"""Learning problems of a benchmark experiment, and the papers' data generators."""

__all__ = []
