"""``wss://``: the server's TLS context, and why a certificate and key cannot make one.

Plain ``ws://`` stays the default (a game on a LAN needs no certificate); given a
certificate and its key the server speaks TLS 1.2 or newer only.
"""

from __future__ import annotations

import ssl


class EncryptedKeyError(ValueError):
    """The key file needs a passphrase."""


def _no_passphrase() -> str:
    # The server runs unattended: OpenSSL's own fallback would stop and prompt on the
    # terminal for the passphrase.
    raise EncryptedKeyError("the key file is encrypted")


def tls_context(certfile: str | None, keyfile: str | None = None) -> ssl.SSLContext | None:
    """The server's TLS context (None without a certificate: plain ``ws://``).

    ``keyfile`` may be omitted when ``certfile`` holds the key too. Raises ``OSError``,
    ``ssl.SSLError`` or :class:`EncryptedKeyError`; :func:`tls_problem` puts them in words.
    """
    if certfile is None:
        if keyfile is not None:
            raise ValueError("a key file without a certificate")
        return None
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(certfile, keyfile, password=_no_passphrase)
    return context


def tls_problem(certfile: str, keyfile: str | None) -> str | None:
    """Why the server cannot serve ``wss://`` with these files, in one line (None: it can).

    >>> tls_problem("/nonexistent/server.pem", None)
    'cannot read /nonexistent/server.pem: No such file or directory'
    """
    # OpenSSL names neither the file nor the problem ("PEM lib"): find out which it is.
    for path in (certfile, keyfile):
        if path is not None:
            try:
                with open(path, "rb") as handle:
                    handle.read()
            except OSError as exc:
                return f"cannot read {path}: {exc.strerror or exc}"
    key = keyfile or certfile
    try:
        tls_context(certfile, keyfile)
    except EncryptedKeyError:
        return (
            f"the key in {key} is encrypted, and the server cannot ask for its passphrase: "
            f"give it a decrypted copy (openssl pkey -in {key} -out server.key)"
        )
    except ssl.SSLError as exc:
        if exc.reason == "KEY_VALUES_MISMATCH":
            return f"the key in {key} does not belong to the certificate in {certfile}"
        if not _holds_a_certificate(certfile):
            return f"{certfile} holds no PEM certificate"
        return f"{key} holds no PEM private key"
    except OSError as exc:  # a file that went away since it was read
        return f"cannot load {certfile} and {key}: {exc}"
    return None


def _holds_a_certificate(path: str) -> bool:
    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT).load_verify_locations(cafile=path)
    except (OSError, ssl.SSLError):
        return False
    return True
