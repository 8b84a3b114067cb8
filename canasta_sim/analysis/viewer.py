"""The viewer page (stub)."""


def write_viewer(out, scripts, done, settings):
    """Write DIR/index.html."""
    return None
