"""What the commands write: the I/O-safe writers (:mod:`.output`), the HTML page of a black-box
report (:mod:`.html_report`), the text and Markdown page of ``privref table4``
(:mod:`.pate_text`) and the PNG plots of the experiments (:mod:`.learning_plot`,
:mod:`.illustrations_plot`, :mod:`.prediction_plot`, :mod:`.pate_plot`).

Nothing is imported here; the plots import matplotlib only when they draw.
"""
