import os

from django.core.wsgi import get_wsgi_application

from config.dotenv import load_dotenv_file

load_dotenv_file()
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
application = get_wsgi_application()
