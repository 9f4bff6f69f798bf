// The whole results oracle suite, against the Galera cluster (the order of imports matters).
import './galera-backend';
import '../integration/results-oracle.contract.test';
