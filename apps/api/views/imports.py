"""Importing an AWR report (+ optional segment sizes) or an offline extract into a target (admins): the import
page's forms, upload limits and services, and the same audit entries."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response

from apps.api.errors import BadRequest
from apps.api.serializers import RunSerializer
from apps.api.views.base import ApiView, target_or_404
from apps.core.audit import audit_event_record
from apps.core.config import get_config
from apps.core.uploads import upload_refusals
from apps.dashboard.runs.selectors import run_get
from apps.snapshots.forms import ExtractUploadForm, ReportUploadForm
from apps.snapshots.imports import ImportRefused, extract_import, import_outcome, report_import, upload_bytes
from apps.targets.awr_report import AwrReportError, decode_report


class ReportUpload(serializers.Serializer):
    report = serializers.FileField(help_text="an AWR report, HTML or text (awrrpt.sql, awrrpti.sql, awrgrpt.sql)")
    sizes = serializers.FileField(required=False, help_text="segments.csv of an offline extract: segment sizes")


class ExtractUpload(serializers.Serializer):
    extract = serializers.FileField(help_text="the output directory of scripts/oracle/tierscope_extract.sql, zipped")


class ImportResult(serializers.Serializer):
    outcome = serializers.CharField(help_text="what was imported, in one line")
    run = RunSerializer()


_RESPONSES = {201: ImportResult, 400: OpenApiResponse(description="refused: the file, its size or its database"),
              413: OpenApiResponse(description="the request body is over the upload limit")}


def _form_errors(form) -> BadRequest:
    field, errors = next(iter(form.errors.items()))
    return BadRequest(field if field != "__all__" else "file", " ".join(errors))


class _Import(ApiView):
    parser_classes = [MultiPartParser]
    kind = ""
    form_class: type[forms.Form]
    run_import: Callable[..., tuple[Any, str]]  # each kind's, given its form's cleaned data: (the run, the file's name)

    def post(self, request, name: str):
        target = target_or_404(name)
        files = request.FILES  # parsed here: the upload handlers drop any file over MAX_UPLOAD_BYTES
        refused = upload_refusals(request._request)
        try:
            if refused:
                raise ImportRefused("; ".join(refused))
            form = self.form_class(request.data, files)
            if not form.is_valid():
                raise _form_errors(form)
            run, filename = self.run_import(target, form.cleaned_data)
        except (ImportRefused, AwrReportError) as exc:
            audit_event_record(actor=request.user, action=f"import {self.kind}", target=target,
                               detail=" ".join(f.name for f in files.values()), outcome=f"refused: {exc}")
            raise BadRequest(self.kind, str(exc)) from None
        outcome = import_outcome(run, filename)
        audit_event_record(actor=request.user, action=f"import {self.kind}", target=target, detail=filename,
                           outcome=outcome)
        return Response({"outcome": outcome, "run": RunSerializer(run_get(run_id=run.id)).data},
                        status=status.HTTP_201_CREATED)


@extend_schema_view(post=extend_schema(operation_id="import_report", summary="Import an AWR report (admins)",
                                       request={"multipart/form-data": ReportUpload}, responses=_RESPONSES))
class ReportImport(_Import):
    kind = "report"
    form_class = ReportUploadForm

    def run_import(self, target, cleaned):
        upload, sizes = cleaned["report"], cleaned["sizes"]
        run = report_import(target=target, data=decode_report(upload_bytes(upload), filename=upload.name),
                            filename=upload.name, sizes=upload_bytes(sizes) if sizes else None,
                            sizes_filename=sizes.name if sizes else "segments.csv")
        return run, upload.name


@extend_schema_view(post=extend_schema(operation_id="import_extract", summary="Import an offline extract (admins)",
                                       request={"multipart/form-data": ExtractUpload}, responses=_RESPONSES))
class ExtractImport(_Import):
    kind = "extract"
    form_class = ExtractUploadForm

    def run_import(self, target, cleaned):
        upload = cleaned["extract"]
        upload.seek(0)
        run = extract_import(target=target, path_or_zip=upload, max_unpacked_bytes=get_config()["MAX_WEB_EXTRACT_BYTES"])
        return run, upload.name
