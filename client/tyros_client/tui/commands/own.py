"""What the client's own commands do (``help``, ``hint``, ``quit`` ...): each registry entry
of a command that sends nothing names its doing here (``Command.run``), and the application
runs it instead of dispatching on the command's name."""

from __future__ import annotations

from .spec import Host, Run


def quit_table(host: Host, argument: str) -> bool:
    host.quit()
    return False


def show_help(host: Host, argument: str) -> bool:
    host.open_help(argument)
    return False


def ask_hint(host: Host, argument: str) -> bool:
    return host.ask_hint()


def replay(host: Host, argument: str) -> bool:
    return host.look_back(review=False)


def review(host: Host, argument: str) -> bool:
    return host.look_back(review=True)


def autopass(host: Host, argument: str) -> bool:
    host.tell(host.autopilot.toggle_pass())
    return False


def settings(host: Host, argument: str) -> bool:
    host.tell(host.autopilot.setting(argument))
    return False


def panel(name: str) -> Run:
    """Show the panel ``name`` (the legal actions, or the log) beside the table."""

    def show(host: Host, argument: str) -> bool:
        host.show_panel(name)
        return False

    return show


def score(host: Host, argument: str) -> bool:
    return host.open_score()
