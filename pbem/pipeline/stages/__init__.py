"""The pipeline's stages: one module per stage, named after it, each with one stage function
and its `pbem.pipeline.base.Stage` (``STAGE``: name, description, function).

Their order is `pbem.pipeline.runner.STAGES`, listed in `pbem.pipeline`. What several stages
share lives next to this package: `pbem.pipeline.reply_keys`, `pbem.pipeline.seat_words`,
`pbem.pipeline.answers`, `pbem.pipeline.talk`, `pbem.pipeline.fairplay`,
`pbem.pipeline.mail_orders` and `pbem.pipeline.lines`.
"""
