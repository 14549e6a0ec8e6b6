"""A lit test format that yields every test twice: as by default (kernels
whose barriers are all in CTA-uniform control flow run their CTAs in
phases, the others on fibers), and with PTXJIT_BARRIERS=fibers (every CTA
with barriers on fibers). test/Barriers/lit.local.cfg uses it. In a module
of its own so that lit's worker processes can unpickle the tests.
"""
import copy

import lit.formats
import lit.Test


class FiberBarrierTest(lit.Test.Test):
    def getFullName(self):
        return super().getFullName() + " [fibers]"

    def getExecPath(self):
        # Temporary files of their own: the two runs may be concurrent.
        return super().getExecPath() + ".fibers"


class BothBarrierPaths(lit.formats.ShTest):
    def getTestsForPath(self, testSuite, path_in_suite, litConfig, localConfig):
        for test in super().getTestsForPath(
            testSuite, path_in_suite, litConfig, localConfig
        ):
            yield test
            fibers = copy.copy(localConfig)
            fibers.environment = dict(localConfig.environment, PTXJIT_BARRIERS="fibers")
            yield FiberBarrierTest(testSuite, path_in_suite, fibers)


def both_paths(base_format):
    """The suite's ShTest format (with its settings), each test twice."""
    assert isinstance(base_format, lit.formats.ShTest)
    both = copy.copy(base_format)
    both.__class__ = BothBarrierPaths
    return both
