# Which tests leave the quick tier, and why (cmake/TestTiers.cmake). `ctest -L quick` runs the rest.
# compiles: runs a compiler (g++, nvcc, a setup.py or CMake build); network: reaches PyPI;
# netns: makes network namespaces; interpreters: looks for other Pythons and runs them. A group over 60 s a test says why in its file too.

# The PyTorch-shaped fixture project built with setup.py, CMake and ninja (tests/build/fixture_project_test.cpp).
ts_slow(test_build compiles "FixtureProject.*")
# A real ninja run, a real governor over compile-shaped children.
ts_slow(test_build compiles "NinjaStatus.ParsesRealNinjaOutput:Runner.CleanRunWithNinjaProgress")

# Ten setuptools extensions built against Debian's torch through the Python build helper.
ts_slow(test_run compiles "PyshimBuild.*:CompileCache.RealCcacheCachesNvccCompiles")
# torchsmith's PEP 517 frontend running setup.py (pure-Python trees, a few seconds) and in-tree backends.
ts_slow(test_run compiles "Pep517Frontend.*")
# Tiny long-tail packages (a GPU check, an old -std, their own -gencode) built with and without the remedies.
ts_slow(test_run compiles "PyshimRemedy.*")
# Tiny CMake projects (an old standard, their own CUDA arches, a setup.py running cmake) with and without the CMake remedies.
ts_slow(test_run compiles "CmakeRemedy.*:CmakeSetupPy.*")
# A CMake project adding an old vendored pybind11, built with and without build.pybind11-torch's stand-in (10-20 s each).
ts_slow(test_run compiles "CmakePybind11.*")
# A tiny setuptools package whose setup.py names another layout's paths, built with and without build.source-reroot.
ts_slow(test_run compiles "SourceReroot.APackageWrittenForAnotherLayoutBuildsWithTheRemedy")
# A tiny setuptools package whose setup.py lists a source the tree renamed, built with and without build.source-name.
ts_slow(test_run compiles "SourceName.APackageListingARenamedSourceBuildsWithTheRemedy")
# setuptools' PEP 517 backend running a tiny setup.py with and without build.setup-flag (~1.5 s).
ts_slow(test_run compiles "SetupFlag.*")
# An old versioneer's configparser calls run by every Python >= 3.12 found here, with and without build.python-alias.
ts_slow(test_run interpreters "PythonAlias.AnOldVersioneerReadsSetupCfgOnPython312WithTheSignaturesTable")
# Tiny CMake and setuptools packages asking for LTO, linked by a GCC copied without lto-wrapper, with and without build.no-lto.
ts_slow(test_run compiles "NoLto.*:NoLtoSetuptools.*")
# A std member used without its header, compiled with nvcc and g++ before and with the force-include remedy.
ts_slow(test_run compiles "ForceIncludeCompile.*")
# c10::Half compared in device code, compiled with nvcc 13 and torch's headers before and with build.cuda-half-operators.
ts_slow(test_run compiles "HalfOperatorsCompile.*")

# Small shared libraries compiled with g++ to repair, vendor, package and read.
ts_slow(test_package compiles "Repair.*:CondaPackage.*:CondaIndexJson.FromMemoryAsFromTheFileAndNothingWritten:Index.RepodataListsPackagesWithIndependentDigestsAndNamesTheCorruptOne")

# An object compiled with g++ -c whose hidden undefined symbols are read (build.cpp-kernel-launch's link half).
ts_slow(test_formats compiles "ElfReal.HiddenUndefinedSymbolsOfAnObject")
# Real nvcc compiles of fatbinaries (skipped without a CUDA toolkit).
ts_slow(test_verify compiles "FatbinNvcc.*:CudaRelease.RealNvccSharedObjectSaysItsCudaAndAMismatchFailsNamingBoth")
# Tiny wheels verified with and without a plan: 3 and 2 verify runs, each installing into a target,
# pip reading a wheelhouse for a declared dependency, the Debian Python importing torch: 36-100 s and
# 13-43 s on 2 cores at a load of 17-19, where the quick tier's AnUndeclaredDependency... took 10-58 s.
ts_slow(test_verify interpreters "PythonCheck.WithAPlanOrWithoutTheSameWheelIsAskedTheSameQuestion:PythonCheck.AMissingTorchModuleIsNoDependency")
# An op library compiled with cc, in two tiny wheels verified with the Debian Python importing torch (~5 s here).
ts_slow(test_verify compiles "PythonCheck.ThePlansModuleThatIsAnOpLibraryIsLoadedNotImported")

# A compiler's identity read from a probe compile; distcc's probe compile.
ts_slow(test_scale compiles "CompilerIdentity.ReadFromAnObjectsCommentSection:Farm.DownStoreAndUnreachableHostAreReportedNotFatal:PlanScale.NoReachableHostKeepsTheLocalJobs")

# A fix checked by compiling the file it edits; a port checked by assembling inline PTX with nvcc, or by
# compiling against the test venv's torch headers (g++ -fsyntax-only over torch/script.h: 1-2 minutes).
ts_slow(test_source compiles "UpstreamFixes.QuantizationTypeGetsCstdintWithGcc13OnTorch113:UpstreamFixesEffect.*:PortNvcc.*:PortTorchCompile.*:PortIncludeOrder.AMacroUsedAboveItsHeaderCompilesReordered:PortInstantiation.ALibraryMissingItsOwnSpecializationLinksOnceInstantiated")

# PyPI, live (skipped offline).
ts_slow(test_source network "Pypi.LiveTorchScatter212SdistHashChecked")
ts_slow(test_verify network "InstallDeps.LiveFvcoreVerifiesWithItsRealDependenciesFromPypi")

# End-to-end builds through the binary: the fixture project, hello_ext, sdists.
ts_slow(test_cli compiles "BuildCli.*:BuildVerifyCli.*:SdistSource.BuildByNameFromTheSdist:Harden.RepairKeepsEveryNameFromTheWheelInsideItsOutput:Harden.OutWithASpaceKeepsTheCompileCacheWorking:RepairCli.RepairsAWheelAndReportsJson:CondaCli.*")
ts_slow(test_cli network "KbRefresh.LiveFromPyPI")
# A build whose setup.py stops at once, to read what it says before (the plan's warnings): a few seconds.
ts_slow(test_cli compiles "PlanWarningAtBuild.*")
# A scikit-build-core package built with its backend installed from PyPI into the build overlay (~15 s),
# and again from a wheelhouse filled from PyPI, with no index.
ts_slow(test_cli network "CmakeSkbuild.*")
# A package including CUTLASS's headers it does not ship, built with a stand-in nvidia-cutlass wheel from a
# wheelhouse (build.header-wheel), and plain pip stopping at the include: ~15-30 s.
ts_slow(test_cli compiles "HeaderWheel.*")
# A package including the CUDA samples' helper_math.h, built with a stand-in Common/ folder served from a
# mirror directory (build.header-source), a near miss with a file that is not the pinned one, and plain pip.
ts_slow(test_cli compiles "HeaderSourceCli.*")
# Three real CUDA extension builds against a PyPI torch (and, cold, that torch's install); the
# wheelhouse half runs under unshare -n. COST: ctest -j2 starts them first on a fresh build directory.
ts_slow(test_cli network "ProvisionCli.CudaExtension*" TIMEOUT 3600 COST 1000)
# Issue 19's CI acceptance (docs/packages.md): mmcv-full from PyPI built and verified with its
# runtime dependencies, and `torchsmith matrix` over two PyPI torch releases.
ts_slow(test_cli network "RealPackagesNet.*" TIMEOUT 2400 COST 3000 REGISTER_IF TORCHSMITH_LONG_NETWORK_TESTS)
ts_slow(test_cli network "MatrixCli.Live*" TIMEOUT 2400 COST 2000 REGISTER_IF TORCHSMITH_LONG_NETWORK_TESTS)

# NVIDIA's redistributable archives made from the machine's CUDA 13 (xz of ~330 MB), provisioned over
# loopback and offline (unshare -rn), a real .cu compiled: 1-2 minutes on a loaded 2-core machine.
ts_slow(test_cli compiles "ProvisionRedistCli.*" TIMEOUT 900 COST 900)

# Build hosts and a shared store in network namespaces, several builds each (tests/cli/scale_test.cpp).
ts_slow(test_scale_farm netns "*" TIMEOUT 1800)
