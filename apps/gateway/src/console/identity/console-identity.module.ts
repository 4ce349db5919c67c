import { Module } from '@nestjs/common';
import { IdentityRepository } from './identity.repository';
import { InvitesService } from './invites.service';
import { PasswordResetsService } from './password-resets.service';
import { SessionsService } from './sessions.service';
import { SignInThrottle } from './sign-in-throttle';
import { UsersService } from './users.service';

/** The console's people, invites, sessions and password resets: used by the console (public port) and the operator's invite route. */
@Module({
  providers: [IdentityRepository, SignInThrottle, SessionsService, InvitesService, UsersService, PasswordResetsService],
  exports: [SessionsService, InvitesService, UsersService, PasswordResetsService],
})
export class ConsoleIdentityModule {}
