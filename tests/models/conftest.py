"""Fixtures of the model tests: the fault server, and an oracle put back the way each test found it."""


import pytest


from agent_team import oracle
from fault_server import FaultServer


@pytest.fixture(scope="session")
def faults():
    server = FaultServer().start()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def oracle_in_process():
    """Making a model switches the oracle to the isolated runner for good; a test must not leak that."""
    previous = oracle.run_elsewhere(None)
    yield
    oracle.run_elsewhere(previous)
