"""The period picker of the target, segment and recommendations pages, and the compare-two-periods page.

Modules by concern: ``picker`` (which period's measured IO to show, from the request), ``selectors`` (what
the picker changes on a page: the rows' IO figures, the segment's chart), ``charts`` (the target page's
charts over the chosen period), ``compare`` (the compare page's form and one page of its rows), ``views``
(the picker's part of the pages, and the compare page), ``urls`` (the compare page's route).
"""
