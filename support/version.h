/* relaykit's version, printed by --version and in rreduce's reports. */
#ifndef RELAYKIT_VERSION_H
#define RELAYKIT_VERSION_H
#define RELAYKIT_VERSION "0.5.0"
#endif
