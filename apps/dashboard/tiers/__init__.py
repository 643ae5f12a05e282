"""The tiers page (/tiers/): the tier catalog by tier set; admins edit a tier and install the preset tiers.

Modules by concern: ``views`` (the catalog, the editor, the presets' install), ``urls`` (their routes, in the
dashboard namespace), ``forms`` (the tier editor, which refuses figures the cost model cannot price),
``selectors`` (the tiers by set with their intensities and break-evens).
"""
