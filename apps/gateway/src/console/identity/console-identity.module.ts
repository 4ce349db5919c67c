import { Module } from '@nestjs/common';
import { IdentityRepository } from './identity.repository';
import { InvitesService } from './invites.service';
import { SessionsService } from './sessions.service';
import { SignInThrottle } from './sign-in-throttle';
import { UsersService } from './users.service';

/** The console's people, invites and sessions: used by the console (public port) and the operator's invite route. */
@Module({
  providers: [IdentityRepository, SignInThrottle, SessionsService, InvitesService, UsersService],
  exports: [SessionsService, InvitesService, UsersService],
})
export class ConsoleIdentityModule {}
