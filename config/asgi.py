import os

from django.core.asgi import get_asgi_application

from config.dotenv import load_dotenv_file

load_dotenv_file()
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
application = get_asgi_application()
