"""The base of an action language that runs on one kind of backend (a family's own).

A family whose actions need its own backend (WebShop's pages, VirtualHome's household, the
RapidAPI episode, a Seal-Tools answer) writes its language on :class:`BackendLanguage`, which
carries what each such language needs: the action's budgets, and the one check that the backend
it is handed is its kind, with a message that says which kind it got. The language imports its
backend's class from the family's ``backend.py``; the toolkit imports both.
"""

from __future__ import annotations

from typing import ClassVar, Generic, TypeVar

from toolgym.tools.backend import Backend
from toolgym.tools.budgets import DEFAULT_BUDGETS, Budgets
from toolgym.tools.language import ActionLanguage

B = TypeVar("B", bound=Backend)


class BackendLanguage(ActionLanguage, Generic[B]):
    """An action language over one backend class (see the module docstring).

    Subclasses set :attr:`backend_type` to that class and reach the episode's backend through
    :meth:`on`.

    Args:
        budgets: the limits of one action.
    """

    backend_type: ClassVar[type[Backend]]
    """The backend class this language runs on."""

    def __init__(self, budgets: Budgets = DEFAULT_BUDGETS) -> None:
        self.budgets = budgets

    def on(self, backend: Backend) -> B:
        """``backend`` as this language's kind of backend.

        Raises:
            TypeError: another kind of backend (a programming error, not an agent's).
        """
        if not isinstance(backend, self.backend_type):
            raise TypeError(
                f"the {self.name} language runs on a {self.backend_type.__name__}; "
                f"got {type(backend).__name__}"
            )
        return backend  # type: ignore[return-value]
