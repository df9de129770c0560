"""Models of the games app, one module per concern.

runs.py: solo runs and best times; layouts.py: layouts managed in admin.
"""

from games.models.layouts import Layout
from games.models.runs import BestTime, Run, TimeForReview

__all__ = ["BestTime", "Layout", "Run", "TimeForReview"]
