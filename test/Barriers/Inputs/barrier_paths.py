"""A lit test format that yields every test twice: as by default (CTAs with
barriers on fibers), and with PTXJIT_BARRIERS=phases (kernels whose barriers
are all in CTA-uniform control flow run their CTAs in phases). test/Barriers/lit.local.cfg uses it. In a module of its own so that
lit's worker processes can unpickle the tests.
"""
import copy

import lit.formats
import lit.Test


class PhaseBarrierTest(lit.Test.Test):
    def getFullName(self):
        return super().getFullName() + " [phases]"

    def getExecPath(self):
        # Temporary files of their own: the two runs may be concurrent.
        return super().getExecPath() + ".phases"


class BothBarrierPaths(lit.formats.ShTest):
    def getTestsForPath(self, testSuite, path_in_suite, litConfig, localConfig):
        for test in super().getTestsForPath(
            testSuite, path_in_suite, litConfig, localConfig
        ):
            yield test
            phases = copy.copy(localConfig)
            phases.environment = dict(localConfig.environment, PTXJIT_BARRIERS="phases")
            yield PhaseBarrierTest(testSuite, path_in_suite, phases)


def both_paths(base_format):
    """The suite's ShTest format (with its settings), each test twice."""
    assert isinstance(base_format, lit.formats.ShTest)
    both = copy.copy(base_format)
    both.__class__ = BothBarrierPaths
    return both
