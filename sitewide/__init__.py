"""Site-wide helpers every app may import, and which import no app:
settings support (env, secret, startup), request handling (errors,
headers, health, request log, static files), the digits of a language
(numerals) and its JavaScript catalogue, the ASGI process's set-up."""
