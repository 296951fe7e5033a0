"""The ``privref`` command line: the argparse front end (:mod:`.cli`) and one module per command.

:mod:`.cli` declares every command and maps every outcome to an exit code (:mod:`.exit_codes`);
each command module holds its flags (``configure_parser``) and its body (``run``): :mod:`.audit`,
:mod:`.lemmas`, :mod:`.learn`, :mod:`.illustrate`, :mod:`.experiments`, :mod:`.table4` and
:mod:`.account`.  ``privref audit blackbox`` and ``privref blackbox-suite`` live in
:mod:`privref.app.blackbox_cli` and :mod:`privref.app.blackbox_suite`.  Nothing is imported
here: a command's module (and its plotting and learning libraries) loads only when it runs.
"""
