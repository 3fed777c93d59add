// SPDX-License-Identifier: GPL-2.0
/*
 * netdev workload: sends one UDP datagram of SIZE bytes to ADDR port
 * 9 (discard) and waits a moment for the packets to go through.
 *
 *   netdev ADDR SIZE
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char payload[65536];
	struct sockaddr_in sin;
	size_t size;
	int s;

	if (argc != 3)
		return 2;
	size = strtoul(argv[2], NULL, 0);
	if (size > sizeof(payload))
		return 2;
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons(9);
	if (inet_pton(AF_INET, argv[1], &sin.sin_addr) != 1)
		return 2;
	s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0) {
		perror("socket");
		return 1;
	}
	memset(payload, 'n', size);
	if (sendto(s, payload, size, 0, (struct sockaddr *)&sin, sizeof(sin)) !=
	    (ssize_t)size) {
		perror("sendto");
		return 1;
	}
	usleep(300000);
	close(s);
	return 0;
}
