"""Names vulture reports as unused that are not dead: read by a framework, a template, the ORM, the tests or the bench.

vulture only parses this file (pyproject.toml's [tool.vulture] paths); nothing imports it. Hooks that a rule
describes (a registering decorator, a hook's name) are ignored in pyproject.toml instead; list a name here only
when no rule fits, under the group that says why it stays. Names, not module paths: a module may move.
"""
# ruff: noqa: B018, F821

# Django's own settings (django.conf.global_settings), read by Django from the settings module.
SECRET_KEY, DEBUG, ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS, INSTALLED_APPS, MIDDLEWARE, ROOT_URLCONF, WSGI_APPLICATION
TEMPLATES, DATABASE_ROUTERS, DEFAULT_AUTO_FIELD, CACHES, AUTH_PASSWORD_VALIDATORS, AUTHENTICATION_BACKENDS
LOGIN_URL, LOGIN_REDIRECT_URL, LOGOUT_REDIRECT_URL, LANGUAGE_CODE, USE_I18N, STATIC_URL, STATICFILES_DIRS
STATIC_ROOT, STORAGES, DATA_UPLOAD_MAX_MEMORY_SIZE, FILE_UPLOAD_MAX_MEMORY_SIZE, FILE_UPLOAD_HANDLERS
EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS, SESSION_COOKIE_HTTPONLY, SESSION_COOKIE_SECURE
CSRF_COOKIE_HTTPONLY, CSRF_COOKIE_SECURE, X_FRAME_OPTIONS, SECURE_CONTENT_TYPE_NOSNIFF, SECURE_SSL_REDIRECT
SECURE_REDIRECT_EXEMPT, SECURE_HSTS_SECONDS, SECURE_HSTS_INCLUDE_SUBDOMAINS, SECURE_HSTS_PRELOAD
SECURE_PROXY_SSL_HEADER, MIGRATION_MODULES, LOGGING, PASSWORD_HASHERS

# Named by a dotted path in the settings (MIDDLEWARE, DATABASE_ROUTERS, FILE_UPLOAD_HANDLERS, STORAGES, REST_FRAMEWORK,
# SPECTACULAR_SETTINGS, CELERY_TASK_ROUTES, CELERY_BEAT_SCHEDULER, the allauth adapters) or by auditlog's
# mask_callable; loaded by that name, never imported.
AuditMiddleware, BearerUserMiddleware, RequestBodyGuardMiddleware, ReplicaReadsMiddleware, ReplicaRouter
SizeLimitUploadHandler, api_exception_handler, BoundedLimitOffsetPagination, ViewerReadAdminWrite
ApiTokenAuthentication, add_error_responses, route_task, ResilientDatabaseScheduler, LocalAccountAdapter
DirectoryAccountAdapter, secret_mask, ModuleManifestStaticFilesStorage
# A drf-spectacular extension (registered by subclassing once apps.api.apps imports its module) and a Celery
# worker bootstep (added by its dotted path in config/celery.py).
ApiTokenScheme, WorkerHeartbeat

# Hook signatures and attributes of a framework's base class that no general rule names: Celery beat's Scheduler
# (sync, its heap), a bootstep's requires, a Celery router's **kw, a model field's from_db_value(expression),
# drf-spectacular's postprocessing hook (generator, public).
_.sync, _._heap, _._heap_invalidated, requires, kw, expression, generator, public
# Django's ManifestStaticFilesStorage reads its class attribute support_js_module_import_aggregation.
_.support_js_module_import_aggregation

# DRF SerializerMethodField readers: get_<field> of a declared field (a rule on get_* would hide every dead getter).
_.get_label, _.get_cost_now_usd_per_month, _.get_cost_after_usd_per_month, _.get_savings_usd_per_month
_.get_findings, _.get_refresh_status, _.get_refresh_error, _.get_state, _.get_intensity, _.get_effective_usd_per_gb
_.get_effective_usd_per_iops, _.get_kind, _.get_action, _.get_detail, _.get_outcome, _.get_changes
_.get_tiers

# Declared fields of serializers and forms: DRF and Django forms read them from the class.
_.refresh_error, _.live, _.costs_lower_bound, _.effective_usd_per_gb, _.effective_usd_per_iops, _.remote_addr
_.extract, _.budget_amount, _.budget_unit, _.a_from, _.a_to, _.b_from, _.b_to, _.per_page, _.from_day, _.to_day
_.confirm_name

# Model fields (columns): written through the ORM and shown by the admin, the pages or the API, or kept as the
# record of what happened (who, when) though no Python reads them back. Dropping one is a schema change.
_.changed_at, _.sent_at, _.last_error, _.first_seen_at, _.rolled_up, _.physical_writes_blocks
_.physical_writes_direct_blocks, _.logical_reads, _.task_id, _.detected_at, _.built_at, _.made_by, _.chosen_gb
_.uploaded_by, _.nominal_device_iops, _.nominal_read_latency_ms, _.nominal_throughput_mb_s, _.set_device_iops
_.set_read_latency_ms, _.rendered_at, _.segment_digest, _.priced_on, _.folded_into, _.after_run, _.created_by
_.approved_by, _.executed_by_name, _.verified_at, _.verified_by_name, _.free_space_checked, _.is_superuser
# Members of a model's choices: the values stored in the column, compared as strings.
_.ASM, _.FIO, _.ORION, _.CALIBRATE_IO, _.PERFORMANCE_LEVEL

# Read by templates (vulture reads no template): properties and fields of the pages' records.
_.unread_groups, _.check_badge, _.flash_hit_share, _.mode_explanation, _.io_time_lost_s_per_day
_.cost_before_usd_per_month, _.source_words, _.source_label, _.flagged, _.next_due_at, _.last_check_ago
_.provisional, _.short_moves, _.disk_short_moves, _.disk_unknown_moves, _.unplaced_moves, _.evicted_gb
_.evicted_one_off_usd

# Fields of result records written out whole (a budget's targets in the command's JSON and CSV), of rows named as
# the Oracle statement returns its columns, and of figures kept with their provenance.
_.unknown_size_on_tier, _.kept_gb, _.kept_not_repaying_gb, _.one_off_usd, _.instance_name, _.host_name
_.error_count, _.snap_flag, _.max_size_blocks, _.throughput_source, _.demand_iops, _.io_s_per_day

# Management commands' subcommands and formats, called as getattr(self, f"_{name}").
_._json, _._csv, _._show

# Used by the tests, where the scalar or whole form is the reference a faster or streamed form is checked
# against: the cost model's per-object forms, the rules' advice, the pooled volumes' charges, the whole JSON
# export, the DDL script's comments.
_.usage_of, _.object_cost_usd, _.demand_gb, _.volume_usd_per_month, _.charge_usd, _.tier_adjusted, _.comments
export_json
# Used by the tests and the bench: the sorted recommendation list, the statements' file stems, the releases the
# catalog test checks, the tier presets, the demo fleet's columns and statistics, the demo source's round trips.
recommendation_sorted, statement_stems, SUPPORTED_RELEASES, preset_tiers, FLEET_SEGMENT_COLUMNS, FLEET_STAT_COLUMNS
fleet_stats, _.round_trips
# Used by the bench only: what it measures against the incremental paths (a window's base dropped and rebuilt,
# the segment days rebuilt from the snapshots).
window_base_drop, segment_days_rebuild

# Keys of TypedDicts: the dicts are built and read by key (typed for mypy), never as attributes.
_.input_formats, _.server_url, _.client_id

# Names imported for type checking only (under TYPE_CHECKING), used in string annotations.
DataclassInstance
