"""The one exception type for mistakes a user can make."""


class BadInput(ValueError):
    """A user mistake: the message is one line naming the bad value and what is accepted.

    The CLI prints it as ``canasta-sim: error: <message>`` and exits with status 2.
    """
