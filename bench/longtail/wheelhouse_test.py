#!/usr/bin/env python3
"""wheelhouse.py's reading of a setup.py's install_requires, on minimal setup.py texts (the forms the
long-tail packages use), and the near misses it must leave unread. Nothing here is executed or fetched.

  python3 bench/longtail/wheelhouse_test.py
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wheelhouse  # noqa: E402

FILES = {
    "requirements.txt": "-r requirements/runtime.txt\n",
    "requirements/runtime.txt": "yacs\n# a comment\nscipy>=1.2  # why\n\n-e .\n",
    "requirements/build.txt": "cython\n",
}


def read(rel):
    return FILES.get(os.path.normpath(rel))


def install_requires(text):
    return wheelhouse.literal_lists(text, ("install_requires",), read=read)


class SetupImports(unittest.TestCase):
    def test_a_build_module_imported_anywhere_in_setup_py(self):
        # transformerfusion: get_pybind_include().__str__ imports pybind11; nothing declares it.
        text = ("import torch\nfrom setuptools import setup\nclass get_pybind_include(object):\n"
                "    def __str__(self):\n        import pybind11\n        return pybind11.get_include()\n"
                "import os, yaml as y\nfrom Cython.Build import cythonize\n")
        table = wheelhouse.build_modules()
        self.assertEqual(wheelhouse.setup_imports(text, table),
                         [("pybind11", "pybind11"), ("yaml", "pyyaml"), ("Cython", "cython")])

    def test_no_build_module_and_a_comment_are_not_read(self):
        table = wheelhouse.build_modules()
        self.assertEqual(wheelhouse.setup_imports("import tqdm\n# import pybind11\nx = 'import pybind11'\n", table), [])
        self.assertNotIn("torch", table)


class InstallRequires(unittest.TestCase):
    def test_a_literal_list_and_a_name_bound_to_one(self):
        self.assertEqual(install_requires("setup(install_requires=['a', 'b>=1'])"), ["a", "b>=1"])
        self.assertEqual(install_requires("REQS = ['plyfile']\nsetup(install_requires=REQS)"), ["plyfile"])

    def test_a_function_returning_a_literal_list(self):
        # gradsim: install_requires=get_requirements(), the function's body a `return [...]`.
        text = ("def get_requirements():\n    return ['black', 'sphinx==2.2.0']\n\n"
                "if __name__ == '__main__':\n    setup(install_requires=get_requirements())\n")
        self.assertEqual(install_requires(text), ["black", "sphinx==2.2.0"])

    def test_a_function_returning_a_list_it_binds(self):
        # AlphaPose: install_requires = [...]; install_requires.append(...); return install_requires.
        text = ("def reqs():\n    out = ['six', 'tqdm']\n    out.append('pycocotools')\n    return out\n"
                "setup(install_requires=reqs())\n")
        self.assertEqual(install_requires(text), ["six", "tqdm"])

    def test_a_function_reading_a_file_its_body_names(self):
        # se-ssd, EDVR: with open('requirements/runtime.txt') as f: return [l.strip() for l in f]
        text = ("import os\ndef get_requirements():\n    p = os.path.join(os.path.dirname(__file__), "
                "'requirements/runtime.txt')\n    with open(p) as f:\n        return [l.strip() for l in f]\n"
                "requirements = get_requirements()\nsetup(install_requires=requirements)\n")
        self.assertEqual(install_requires(text), ["yacs", "scipy>=1.2"])

    def test_the_file_the_call_names_over_the_signatures_default(self):
        # mmdetection's parse_requirements(fname='requirements.txt'), called with requirements/runtime.txt.
        text = ("def parse_requirements(fname='requirements.txt'):\n    items = []\n"
                "    for line in open(fname):\n        items.append(line.strip())\n    return items\n"
                "setup(install_requires=parse_requirements('requirements/runtime.txt'))\n")
        self.assertEqual(install_requires(text), ["yacs", "scipy>=1.2"])

    def test_a_bound_list_the_top_level_fills_from_a_requirements_file(self):
        # alpaca_lora_4bit: install_requires = [], filled by a `with open("./requirements.txt")` loop.
        text = ("install_requires = []\nwith open('./requirements/runtime.txt', 'r') as f:\n"
                "    for r in [r.strip() for r in f.readlines()]:\n        install_requires.append(r)\n"
                "setup(install_requires=install_requires)\n")
        self.assertEqual(install_requires(text), ["yacs", "scipy>=1.2"])
        # Strings appended or extended at the top level are read as written.
        text = "REQS = ['a']\nREQS.append('b')\nREQS += ['c']\nsetup(install_requires=REQS)\n"
        self.assertEqual(install_requires(text), ["a", "b", "c"])

    def test_near_misses_of_a_filled_list(self):
        # Another list filled from the file; a filled list setup() is not given; a file the tree lacks.
        other = ("install_requires = []\nextras = []\nwith open('requirements/runtime.txt') as f:\n"
                 "    extras.extend(f.read().split())\nsetup(install_requires=install_requires)\n")
        self.assertEqual(install_requires(other), [])
        unused = "reqs = []\nwith open('requirements/runtime.txt') as f:\n    reqs.extend(f)\nsetup(name='x')\n"
        self.assertEqual(install_requires(unused), [])
        absent = ("reqs = []\nwith open('requirements/absent.txt') as f:\n    reqs.extend(f)\n"
                  "setup(install_requires=reqs)\n")
        self.assertEqual(install_requires(absent), [])

    def test_near_misses_are_left_unread(self):
        # A list computed from what only running setup.py would give, a function setup.py does not
        # define, a file the tree lacks: nothing is guessed.
        computed = ("import os\ndef reqs():\n    return [d for d in os.listdir('.') if d.endswith('.whl')]\n"
                    "setup(install_requires=reqs())\n")
        self.assertEqual(install_requires(computed), [])
        self.assertEqual(install_requires("from helpers import reqs\nsetup(install_requires=reqs())\n"), [])
        absent = "def r():\n    return open('requirements/absent.txt').read().split()\nsetup(install_requires=r())\n"
        self.assertEqual(install_requires(absent), [])

    def test_setup_requires_is_read_apart(self):
        text = "def r():\n    return ['x']\nsetup(setup_requires=['cython'], install_requires=r())\n"
        self.assertEqual(wheelhouse.literal_lists(text, ("setup_requires",)), ["cython"])
        self.assertEqual(install_requires(text), ["x"])


class SetupCfgAndRemovedModules(unittest.TestCase):
    def test_setup_cfg_setup_requires(self):
        # pyronn-torch: setup(use_pyscaffold=True) with its PyScaffold pinned in setup.cfg.
        text = ("[metadata]\nname = pyronn-torch\n[options]\nzip_safe = False\n"
                "# DON'T CHANGE THE FOLLOWING LINE!\nsetup_requires = pyscaffold>=3.2a0,<3.3a0\n"
                "install_requires =\n    numpy>=1.19\n    torch\n")
        self.assertEqual(wheelhouse.setup_cfg_requires(text), ["pyscaffold>=3.2a0,<3.3a0"])
        many = "[options]\nsetup_requires =\n    setuptools_scm  # the version\n    cython\n"
        self.assertEqual(wheelhouse.setup_cfg_requires(many), ["setuptools_scm", "cython"])

    def test_setup_cfg_near_misses(self):
        # install_requires is the runtime's, [metadata] is no requirement, and a file that is no INI reads empty.
        self.assertEqual(wheelhouse.setup_cfg_requires("[options]\ninstall_requires = scipy\n"), [])
        self.assertEqual(wheelhouse.setup_cfg_requires("[metadata]\nsetup_requires = x\n"), [])
        self.assertEqual(wheelhouse.setup_cfg_requires("setup_requires = x\n"), [])

    def test_a_removed_module_setup_py_imports(self):
        table = wheelhouse.removed_modules()
        self.assertEqual(table.get("pkg_resources"), "setuptools<82")
        text = "from pkg_resources import DistributionNotFound, require\nfrom setuptools import setup\n"
        self.assertEqual(wheelhouse.setup_imports(text, table), [("pkg_resources", "setuptools<82")])
        self.assertEqual(wheelhouse.setup_imports("# import pkg_resources\nimport setuptools\n", table), [])

    def test_declared_reads_both_from_the_archive(self):
        import io
        import tarfile
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "p.tar.gz")
            with tarfile.open(path, "w:gz") as t:
                for name, text in (("setup.py", "import pkg_resources\nsetup(use_pyscaffold=True)\n"),
                                   ("setup.cfg", "[options]\nsetup_requires = pyscaffold>=3.2a0,<3.3a0\n")):
                    data = text.encode()
                    info = tarfile.TarInfo(name)
                    info.size = len(data)
                    t.addfile(info, io.BytesIO(data))
            got = wheelhouse.declared(path, ".", (), {}, wheelhouse.removed_modules())
        self.assertIn(("pyscaffold>=3.2a0,<3.3a0", "setup.cfg setup_requires", "build"), got)
        self.assertIn(("setuptools<82", "setup.py import pkg_resources", "removed"), got)


if __name__ == "__main__":
    unittest.main()
