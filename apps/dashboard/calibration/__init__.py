"""The tier page's calibration upload (apps.tiering.calibration): a fio, ORION or CALIBRATE_IO file stored on
the tier.

Modules by concern: ``views`` (the upload, admins only), ``urls`` (its route, included by config.urls).
"""
