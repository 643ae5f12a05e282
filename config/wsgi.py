import os

from django.core.wsgi import get_wsgi_application

from config.dotenv import load_dotenv_file
from config.gc_tuning import web_worker_gc

load_dotenv_file()
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
application = get_wsgi_application()

web_worker_gc()  # what is loaded by now out of the collector's sight, and fewer collections (config/gc_tuning.py)
