"""An OAuth 2.0 / OpenID Connect authorization server for Courier's tests: django-oauth-toolkit (PyPI), which
nobody on the project wrote, configured in this one file and served by gunicorn on loopback.

    python3 oauth_app.py setup DIR PORT     # database, signing key, user and clients; writes DIR/catalogue.json
    COURIER_OAUTH_DIR=DIR gunicorn --chdir scripts/servers oauth_app:application --bind 127.0.0.1:PORT

The issuer is http://127.0.0.1:PORT/o: OpenID Connect discovery at /o/.well-known/openid-configuration, RFC 8414
metadata at /.well-known/oauth-authorization-server/o. Refresh tokens rotate, and reusing a replaced one revokes
its whole family. One client per grant (django-oauth-toolkit allows one grant type per application):
client credentials (confidential), authorization code with PKCE (public, and confidential with a secret), and
device authorization (public). A resource endpoint, /api/me, answers the token's user and scope, or 401 with
`WWW-Authenticate`. For the tests' single-flight checks, /test/refreshes?token=SHA256 answers how many refresh
requests presented the refresh token with that SHA-256 (hex); gunicorn runs one worker, so one count.
"""

import hashlib
import json
import os
import secrets
import sys
import threading

STATE_DIR = os.environ.get("COURIER_OAUTH_DIR")

# Refresh requests seen, by the SHA-256 of the refresh token they presented.
REFRESHES = {}
REFRESHES_LOCK = threading.Lock()


def count_refreshes(get_response):
    def middleware(request):
        if request.method == "POST" and request.path == "/o/token/" and request.POST.get("grant_type") == "refresh_token":
            key = hashlib.sha256(request.POST.get("refresh_token", "").encode()).hexdigest()
            with REFRESHES_LOCK:
                REFRESHES[key] = REFRESHES.get(key, 0) + 1
        return get_response(request)

    return middleware


def configure(state_dir, port):
    import django
    from django.conf import settings

    with open(os.path.join(state_dir, "signing-key.pem")) as f:
        private_key = f.read()
    settings.configure(
        DEBUG=False,
        SECRET_KEY=open(os.path.join(state_dir, "django-secret")).read(),
        ALLOWED_HOSTS=["127.0.0.1", "localhost"],
        ROOT_URLCONF=__name__,
        INSTALLED_APPS=[
            "django.contrib.auth",
            "django.contrib.contenttypes",
            "django.contrib.sessions",
            "oauth2_provider",
        ],
        MIDDLEWARE=[
            __name__ + ".count_refreshes",
            "django.contrib.sessions.middleware.SessionMiddleware",
            # Django's double-submit CSRF check on its own forms (the device pages): the tests' browser sends
            # the csrftoken cookie back as X-CSRFToken with Courier's .csrfToken middleware.
            "django.middleware.csrf.CsrfViewMiddleware",
            "django.contrib.auth.middleware.AuthenticationMiddleware",
        ],
        # Tests run in parallel against it: writers queue for the database (IMMEDIATE, a 20 s wait, WAL)
        # instead of failing with "database is locked".
        DATABASES={
            "default": {
                "ENGINE": "django.db.backends.sqlite3",
                "NAME": os.path.join(state_dir, "db.sqlite3"),
                "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20, "init_command": "PRAGMA journal_mode=WAL;"},
            }
        },
        USE_TZ=True,
        # Client secrets and the user's password are hashed (django-oauth-toolkit's default); with Django's
        # PBKDF2 each client authentication cost about a second of CPU on 2 cores, serialising the tests'
        # requests. A fast hasher keeps the same code paths.
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
        LOGIN_URL="/login/",
        OAUTH2_PROVIDER={
            "OIDC_ENABLED": True,
            "OIDC_RSA_PRIVATE_KEY": private_key,
            "OIDC_ISS_ENDPOINT": f"http://127.0.0.1:{port}/o",
            "PKCE_REQUIRED": True,
            "ROTATE_REFRESH_TOKEN": True,
            "REFRESH_TOKEN_REUSE_PROTECTION": True,
            "ACCESS_TOKEN_EXPIRE_SECONDS": 300,
            "SCOPES": {"openid": "OpenID Connect", "read": "Read", "write": "Write"},
            "DEFAULT_SCOPES": ["read"],
            # RFC 8628 requires the device authorization answer to say where the user goes.
            "OAUTH_DEVICE_VERIFICATION_URI": f"http://127.0.0.1:{port}/o/device/",
        },
        TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates", "APP_DIRS": True}],
    )
    django.setup()


def urls():
    from django.contrib.auth import authenticate, login
    from django.middleware.csrf import get_token
    from django.http import HttpResponse, JsonResponse
    from django.urls import include, path
    from django.views.decorators.csrf import csrf_exempt
    from oauth2_provider.oauth2_backends import OAuthLibCore
    from oauth2_provider.urls import metadata_urlpatterns

    def me(request):
        # An RFC 6750 resource server: 401 with `WWW-Authenticate` for a missing, unknown, expired or revoked
        # token; 403 `insufficient_scope` when ?scope= names one the token lacks.
        required = [s for s in request.GET.get("scope", "").split() if s]
        valid, oauth = OAuthLibCore().verify_request(request, scopes=[])
        if not valid:
            response = JsonResponse({"error": "invalid_token"}, status=401)
            error = 'error="invalid_token"' if request.headers.get("Authorization") else ""
            response["WWW-Authenticate"] = 'Bearer realm="courier"' + (", " + error if error else "")
            return response
        token = oauth.access_token
        if not set(required) <= set(token.scope.split()):
            response = JsonResponse({"error": "insufficient_scope"}, status=403)
            response["WWW-Authenticate"] = f'Bearer error="insufficient_scope", scope="{" ".join(required)}"'
            return response
        return JsonResponse(
            {
                "user": token.user.username if token.user else None,
                "client": token.application.client_id,
                "scope": token.scope,
            }
        )

    @csrf_exempt
    def login_view(request):
        # The test plays the browser: it posts the user's credentials here, then follows the authorize
        # redirect with the session cookie this sets.
        if request.method != "POST":
            return HttpResponse("POST username and password", status=405)
        user = authenticate(request, username=request.POST.get("username"), password=request.POST.get("password"))
        if user is None:
            return HttpResponse("wrong credentials", status=401)
        login(request, user)
        get_token(request)  # the csrftoken cookie, as a login page would set it
        return HttpResponse("signed in")

    def refreshes(request):
        with REFRESHES_LOCK:
            return JsonResponse({"count": REFRESHES.get(request.GET.get("token", ""), 0)})

    return [
        path("test/refreshes", refreshes),
        path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
        path("", include((metadata_urlpatterns, "metadata"))),
        path("api/me", me),
        path("login/", login_view),
    ]


def setup(state_dir, port):
    os.makedirs(state_dir, exist_ok=True)
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    with open(os.path.join(state_dir, "signing-key.pem"), "wb") as f:
        f.write(
            key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            )
        )
    with open(os.path.join(state_dir, "django-secret"), "w") as f:
        f.write(secrets.token_urlsafe(32))
    with open(os.path.join(state_dir, "port"), "w") as f:
        f.write(str(port))
    configure(state_dir, port)
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from oauth2_provider.models import Application

    call_command("migrate", verbosity=0)
    password = secrets.token_urlsafe(12)
    user = User.objects.create_user("octocat", password=password)
    redirect = "http://127.0.0.1/callback"

    def application(name, grant, client_type, algorithm=""):
        secret = secrets.token_urlsafe(24)
        app = Application.objects.create(
            name=name,
            user=user,
            client_type=client_type,
            authorization_grant_type=grant,
            client_secret=secret,
            hash_client_secret=True,
            redirect_uris=redirect if grant == Application.GRANT_AUTHORIZATION_CODE else "",
            algorithm=algorithm,
            skip_authorization=True,
        )
        entry = {"client_id": app.client_id}
        if client_type == Application.CLIENT_CONFIDENTIAL:
            entry["client_secret"] = secret
        return entry

    base = f"http://127.0.0.1:{port}"
    catalogue = {
        "base_url": base,
        "issuer": f"{base}/o",
        "user": {"username": "octocat", "password": password},
        "redirect_uri": redirect,
        "clients": {
            "client_credentials": application(
                "service", Application.GRANT_CLIENT_CREDENTIALS, Application.CLIENT_CONFIDENTIAL
            ),
            "code_public": application(
                "cli", Application.GRANT_AUTHORIZATION_CODE, Application.CLIENT_PUBLIC, Application.RS256_ALGORITHM
            ),
            "code_confidential": application(
                "web", Application.GRANT_AUTHORIZATION_CODE, Application.CLIENT_CONFIDENTIAL, Application.RS256_ALGORITHM
            ),
            "device": application("tv", Application.GRANT_DEVICE_CODE, Application.CLIENT_PUBLIC),
        },
    }
    # Token pairs of the user for the confidential code client, as an authorization code grant would leave
    # them, for the refresh and revocation tests (each pair used by one test: rotation retires it).
    import datetime

    from django.utils import timezone
    from oauth2_provider.models import AccessToken, RefreshToken

    web = Application.objects.get(name="web")
    seeded = []
    for _ in range(2):
        access = AccessToken.objects.create(
            user=user,
            application=web,
            token=secrets.token_urlsafe(30),
            expires=timezone.now() + datetime.timedelta(seconds=300),
            scope="read",
        )
        refresh = RefreshToken.objects.create(
            user=user, application=web, token=secrets.token_urlsafe(30), access_token=access
        )
        seeded.append({"access_token": access.token, "refresh_token": refresh.token})
    catalogue["seeded_tokens"] = seeded
    with open(os.path.join(state_dir, "catalogue.json"), "w") as f:
        json.dump(catalogue, f, indent=2)


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] != "setup":
        sys.exit("usage: oauth_app.py setup DIR PORT")
    setup(sys.argv[2], int(sys.argv[3]))
    urlpatterns = []
else:
    if not STATE_DIR:
        raise RuntimeError("COURIER_OAUTH_DIR names the folder `oauth_app.py setup` made")
    configure(STATE_DIR, int(open(os.path.join(STATE_DIR, "port")).read()))
    urlpatterns = urls()
    from django.core.wsgi import get_wsgi_application

    application = get_wsgi_application()
